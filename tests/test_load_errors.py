"""``ag.load`` refuses every file that is not an archive ``ag.save`` (or ``numpy.savez``)
wrote, with a ValueError that says what the file is and what ``ag.load`` reads, instead of
returning byte strings or raising KeyError/TypeError from deep inside."""

from __future__ import annotations

import io
import json
import pickle
import zipfile

import numpy as np
import pytest

import autograd_course as ag

READS = "ag.load reads the .npz archives ag.save writes"


def _rewrite(path, change) -> None:
    """Load the arrays of the .npz at ``path``, let ``change`` edit the dict, save it back."""
    with np.load(path, allow_pickle=False) as archive:
        arrays = {k: archive[k] for k in archive.files}
    change(arrays)
    with open(path, "wb") as handle:
        np.savez(handle, **arrays)


def _refused(path_or_file, *fragments):
    with pytest.raises(ValueError) as info:
        ag.load(path_or_file)
    message = str(info.value)
    assert message.startswith("ag.load: ") and READS in message, message
    for fragment in fragments:
        assert fragment in message, message
    return message


@pytest.fixture
def saved(tmp_path):
    path = tmp_path / "checkpoint.npz"
    ag.save({"weight": ag.ones(2, 3, requires_grad=True), "step": ag.tensor([1, 2]),
             "epoch": 3}, path)
    return path


def test_torch_save_files_are_named_as_pytorch_checkpoints(tmp_path):
    torch = pytest.importorskip("torch")
    path = tmp_path / "model.pt"
    torch.save({"weight": torch.ones(2, 3)}, path)
    _refused(path, str(path), "PyTorch checkpoint", "numpy.savez")
    torch.save(torch.ones(2), tmp_path / "t.pt")
    _refused(tmp_path / "t.pt", "PyTorch checkpoint")
    buffer = io.BytesIO()
    torch.save(torch.ones(2), buffer)
    buffer.seek(0)
    _refused(buffer, "the file is a PyTorch checkpoint")


def test_old_style_pickles_are_refused(tmp_path):
    path = tmp_path / "legacy.pt"
    path.write_bytes(pickle.dumps({"weight": [1.0, 2.0]}))
    _refused(path, "pickled data", "never unpickles")


def test_a_single_npy_array_is_named(tmp_path):
    path = tmp_path / "weights.npy"
    np.save(path, np.ones(3, np.float32))
    _refused(path, "single NumPy array", ".npy", "numpy.load", "ag.from_numpy")


def test_garbage_bytes_are_refused(tmp_path):
    path = tmp_path / "noise.npz"
    path.write_bytes(b"hello, not an archive at all")
    _refused(path, "is not an .npz archive", "b'hello, n'")
    _refused(io.BytesIO(b""), "is not an .npz archive")


def test_other_zip_archives_are_refused(tmp_path):
    path = tmp_path / "notes.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("readme.txt", "hi")
    _refused(path, "zip archive of other files", "readme.txt")


def test_truncated_archive_is_refused(saved):
    saved.write_bytes(saved.read_bytes()[:200])
    _refused(saved)


def test_layout_naming_a_missing_array(saved):
    def drop_one(arrays):
        name = next(k for k in arrays if k != "__autograd_course_layout__")
        del arrays[name]

    _rewrite(saved, drop_one)
    _refused(saved, "does not describe its arrays", "not in the file", "edited or damaged")


def test_arrays_the_layout_does_not_use(saved):
    _rewrite(saved, lambda arrays: arrays.update(extra=np.zeros(2)))
    _refused(saved, "arrays its layout does not use", "['extra']")


def test_array_of_a_dtype_tensors_cannot_hold(saved):
    def to_complex(arrays):
        name = next(k for k in arrays if k != "__autograd_course_layout__")
        arrays[name] = arrays[name].astype(np.complex128)

    _rewrite(saved, to_complex)
    _refused(saved, "has dtype complex128, which a tensor cannot hold")
    path = saved.parent / "plain.npz"
    np.savez(path, w=np.ones(2, np.uint16))
    _refused(path, "'w'", "uint16")
    np.savez(path, w=np.array(["a", "b"]))
    _refused(path, "<U1")


def test_integer_array_marked_requires_grad(saved):
    def to_int(arrays):
        layout = json.loads(str(arrays["__autograd_course_layout__"]))
        name = next(v["__tensor__"] for k, v in layout["__dict__"] if k == "weight")
        arrays[name] = arrays[name].astype(np.int64)

    _rewrite(saved, to_int)
    _refused(saved, "marked requires_grad")


def test_layout_that_is_not_json(saved):
    _rewrite(saved, lambda arrays: arrays.update(
        __autograd_course_layout__=np.array("{not json")))
    _refused(saved, "does not describe its arrays", "JSONDecodeError")
    _rewrite(saved, lambda arrays: arrays.update(
        __autograd_course_layout__=np.array(json.dumps({"__dict__": 3, "ordered": True}))))
    _refused(saved, "does not describe its arrays", "TypeError")


def test_object_arrays_still_name_allow_pickle(tmp_path):
    path = tmp_path / "evil.npz"
    np.savez(path, payload=np.array([{"a": 1}], dtype=object))
    _refused(path, "allow_pickle=False", "pickle")


def test_good_files_still_load(saved):
    back = ag.load(saved)
    assert back["epoch"] == 3 and back["weight"].requires_grad
    assert back["step"].tolist() == [1, 2]
    buffer = io.BytesIO(saved.read_bytes())
    assert ag.load(buffer)["weight"].shape == (2, 3)
