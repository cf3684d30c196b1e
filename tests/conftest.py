"""Collection rules for the whole suite. Nothing here is shared with the benchmarks."""

from importlib.util import find_spec

# --doctest-modules imports every module it meets: the benchmarks and the reference generator are scripts
# with optional imports (torch, playwright), not tests.
collect_ignore = ["benchmarks", "reference/make_torch_reference.py"]
# The live PyTorch comparison needs PyTorch; without it the stored answers (test_core_torch.py) stand in.
if find_spec("torch") is None:
    collect_ignore.append("test_core_torch_live.py")
