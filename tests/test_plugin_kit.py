"""The plugin author's kit: in a fresh virtual environment with ironworks installed from
its sources (not a checkout on the path), a game package installed from a folder of its
own is found through its entry point and put through the conformance suite by
``ironworks check-plugin``.

Offline: the fresh environment sees this one's dependencies (pip and setuptools among them)
through a ``.pth`` line, and pip builds both packages with ``--no-index
--no-build-isolation``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from conftest import HIGHCARD_DIST

from core.conformance import CHECKS

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("pyproject.toml", "README.md", "core", "plugins", "api", "worker")
TOY_PYPROJECT = """\
[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "highcard"
version = "0.1"
dependencies = ["ironworks"]

[project.entry-points."ironworks.games"]
highcard = "highcard.plugin"

[tool.setuptools]
packages = ["highcard"]
"""


def run(*command: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    return subprocess.run(
        [str(c) for c in command], cwd=cwd, env=env, capture_output=True, text=True,
        timeout=600,
    )  # fmt: skip


def offline_install(python: Path, folder: Path) -> None:
    done = run(
        python, "-m", "pip", "install", "--no-index", "--no-build-isolation", "--no-deps",
        "--quiet", "--disable-pip-version-check", folder, cwd=folder,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.slow
def test_a_game_installed_from_its_own_folder_passes_the_installed_kit(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    made = run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    python = venv / "bin" / "python"
    purelib = Path(run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])",
                       cwd=tmp_path).stdout.strip())  # fmt: skip
    # This environment's packages (litestar, msgspec…, pip and setuptools too) for the fresh
    # one, without network; what gets installed goes to the fresh one's own site-packages.
    (purelib / "ironworks-test-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")

    source = tmp_path / "ironworks-src"  # a copy, so the build leaves the checkout alone
    source.mkdir()
    for name in SOURCES:
        copy = shutil.copytree if (ROOT / name).is_dir() else shutil.copy
        copy(ROOT / name, source / name)
    offline_install(python, source)

    toy = tmp_path / "highcard-plugin"
    shutil.copytree(HIGHCARD_DIST / "highcard", toy / "highcard")
    (toy / "pyproject.toml").write_text(TOY_PYPROJECT)
    offline_install(python, toy)

    code = "import core.conformance, highcard; print(core.conformance.__file__, highcard.__file__)"
    where = run(python, "-c", code, cwd=tmp_path)
    assert where.returncode == 0, where.stderr
    assert all(line.startswith(str(purelib)) for line in where.stdout.split()), where.stdout

    checked = run(venv / "bin" / "ironworks", "check-plugin", "highcard", "--playouts", "1",
                  cwd=tmp_path)  # fmt: skip
    assert checked.returncode == 0, checked.stdout + checked.stderr
    for check in CHECKS:
        assert f"ok   {check.__name__.removeprefix('check_')} " in checked.stdout
    assert "all checks passed" in checked.stdout

    missing = run(venv / "bin" / "ironworks", "check-plugin", "no-such-game", cwd=tmp_path)
    assert missing.returncode == 2 and "highcard" in missing.stderr
