"""Write tests/reference/torch_reference.json: PyTorch's answers on the cases tests/test_core_torch.py checks.

    pip install torch==2.13.0 && python tests/reference/make_torch_reference.py

The file holds every input with its answer (floats as exact repr), the versions that produced it and this
script's name, so the default suite compares `core` with PyTorch on machines without PyTorch. The live
comparison (tests/test_core_torch_live.py) runs the same cases against an installed PyTorch.
"""

import json
import platform
import sys
from pathlib import Path

import numpy as np
import torch

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from tests.reference.torch_cases import cross_entropy_cases, extreme_softmax_cases, jacobian_case  # noqa: E402

F = torch.nn.functional


def class_axis_second(a):
    """PyTorch keeps the class axis at position 1; core keeps it last."""
    return np.moveaxis(a, -1, 1) if a.ndim > 1 else a


def class_axis_last(a):
    return np.moveaxis(a, 1, -1) if a.ndim > 1 else a


def torch_cross_entropy(case):
    z = np.asarray(case["z"], dtype=case["dtype"])
    y = np.asarray(case["target"], dtype=np.float64 if case["target_kind"] == "probabilities" else np.int64)
    zt = torch.from_numpy(class_axis_second(z).copy()).requires_grad_(True)
    yt = torch.from_numpy(class_axis_second(y).copy() if y.dtype.kind == "f" else y)
    weight = None if case["weight"] is None else torch.tensor(case["weight"], dtype=zt.dtype)
    kw = {"weight": weight, "label_smoothing": case["label_smoothing"]}
    loss = F.cross_entropy(zt / case["T"], yt, reduction=case["reduction"], **kw)
    F.cross_entropy(zt / case["T"], yt, reduction="none", **kw).sum().backward()
    return {"loss": loss.detach().numpy().tolist(), "grad": class_axis_last(zt.grad.numpy()).tolist()}


def torch_softmax(case):
    z = torch.tensor(case["z"], dtype=torch.float64) / case["T"]
    return {"softmax": torch.softmax(z, -1).tolist(), "log_softmax": torch.log_softmax(z, -1).tolist()}


def one_case_a_line(out):
    """Compact JSON with one case a line, so a regenerated file diffs case by case."""
    def dump(v):
        return json.dumps(v, separators=(",", ":"))

    parts = []
    for key, value in out.items():
        if isinstance(value, list):
            value = "[\n" + ",\n".join(dump(v) for v in value) + "\n]"
        else:
            value = dump(value)
        parts.append(f"{dump(key)}:{value}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def main():
    torch.set_num_threads(1)
    ce = [{**case, **torch_cross_entropy(case)} for case in cross_entropy_cases()]
    sm = [{**case, **torch_softmax(case)} for case in extreme_softmax_cases()]
    jc = jacobian_case()
    z = torch.tensor(jc["z"], dtype=torch.float64)
    J = torch.autograd.functional.jacobian(lambda v: torch.softmax(v / jc["T"], -1), z)
    out = {
        "produced_by": "tests/reference/make_torch_reference.py",
        "torch": torch.__version__,
        "numpy": np.__version__,
        "python": platform.python_version(),
        "cross_entropy": ce,
        "softmax": sm,
        "jacobian": {**jc, "J": J.numpy().tolist()},
    }
    path = HERE / "torch_reference.json"
    path.write_text(one_case_a_line(out), encoding="utf-8")
    print(f"wrote {path.name}: {len(ce)} cross-entropy cases, {len(sm)} softmax cases, torch {torch.__version__}")


if __name__ == "__main__":
    main()
