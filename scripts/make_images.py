"""Draw the pictures under docs/images/ that the README shows (needs Graphviz's `dot`).

    python3 scripts/make_images.py

q_graph.png         Q = 3a³ − b², with a and b, after Q.backward(gradient=[1, 1])
bce_graph.png       note 002's one-layer network: z = x @ w + b, BCE-with-logits loss
backward_frame.png  one frame of ag.viz.backward_steps on Q: MulBackward0 running
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import autograd_course as ag  # noqa: E402
from autograd_course import viz  # noqa: E402

OUT = ROOT / "docs" / "images"


def q_tensors():
    a = ag.tensor([2.0, 3.0], requires_grad=True)
    b = ag.tensor([6.0, 4.0], requires_grad=True)
    q = 3 * a**3 - b**2
    return a, b, q


def bce_network():
    ag.manual_seed(0)
    x = ag.ones(5)  # input tensor
    y = ag.zeros(3)  # expected output
    w = ag.randn(5, 3, requires_grad=True)
    b = ag.randn(3, requires_grad=True)
    z = ag.matmul(x, w) + b
    functional = getattr(getattr(ag, "nn", None), "functional", None)
    bce = getattr(functional, "binary_cross_entropy_with_logits", None)
    bce = bce or ag.ops.binary_cross_entropy_with_logits
    loss = bce(z, y)
    return dict(x=x, y=y, w=w, b=b, z=z, loss=loss)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    a, b, q = q_tensors()
    q.backward(ag.tensor([1.0, 1.0]), retain_graph=True)  # keep saved tensors: shows the 3
    view = viz.draw_graph(q, params=dict(a=a, b=b, Q=q), title="Q = 3a³ − b²  (after backward)")
    (OUT / "q_graph.png").write_bytes(view.png())

    net = bce_network()
    net["loss"].backward(retain_graph=True)  # keep saved tensors: shows y and x
    view = viz.draw_graph(net["loss"], params=net, title="one-layer network, BCE loss")
    (OUT / "bce_graph.png").write_bytes(view.png())

    a, b, q = q_tensors()
    frames = viz.backward_steps(q, ag.tensor([1.0, 1.0]), params=dict(a=a, b=b, Q=q))
    frame = next(f for f in frames if f.node_name == "MulBackward0")
    (OUT / "backward_frame.png").write_bytes(frame.png())
    for name in ("q_graph", "bce_graph", "backward_frame"):
        print(OUT / f"{name}.png")


if __name__ == "__main__":
    main()
