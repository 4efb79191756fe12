"""Build steps pyproject.toml cannot declare: bundle the engine executable, tag the wheel per platform.

The engine is a native executable, so the wheel is a platform wheel ``py3-none-<platform>``: any
Python 3 (no extension module), one OS and CPU. The binary is copied from ``engine/dist/<os>-<arch>/``
of the repository (``make engine``) into ``src/mailrender/_bin/<os>-<arch>/`` (gitignored), or from
``MAILRENDER_ENGINE_BINARY`` when set.

Release wheels for every platform come from ``scripts/build_wheels.py``, which sets
``MAILRENDER_ENGINE_PLATFORM`` (the ``<os>-<arch>`` the wheel is for) and ``MAILRENDER_WHEEL_PLATFORM_TAG``.
Whatever the way, the build stops when the binary's header names another OS or CPU than the wheel's.
"""

import os
import platform
import shutil
import stat
import struct
import sys

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

try:
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # setuptools < 70
    from wheel.bdist_wheel import bdist_wheel  # type: ignore[no-redef]

HERE = os.path.dirname(os.path.abspath(__file__))


def engine_platform():
    target = os.environ.get("MAILRENDER_ENGINE_PLATFORM", "").strip()
    if target:
        return target
    system = "linux" if sys.platform.startswith("linux") else sys.platform
    machine = platform.machine().lower()
    arch = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}.get(machine, machine)
    return f"{system}-{arch}"


def executable_platform(path):
    """The ``<os>-<arch>`` an executable is for, read from its ELF, Mach-O or PE header."""
    with open(path, "rb") as f:
        head = f.read(4096)
    if head[:4] == b"\x7fELF":
        machine = struct.unpack_from("<H", head, 18)[0]
        return "linux-" + {0x3E: "x64", 0xB7: "arm64"}.get(machine, f"machine{machine:#x}")
    if head[:4] == b"\xcf\xfa\xed\xfe":
        cpu = struct.unpack_from("<I", head, 4)[0]
        return "darwin-" + {0x01000007: "x64", 0x0100000C: "arm64"}.get(cpu, f"cpu{cpu:#x}")
    if head[:2] == b"MZ":
        pe = struct.unpack_from("<I", head, 0x3C)[0]
        if head[pe : pe + 4] == b"PE\0\0":
            machine = struct.unpack_from("<H", head, pe + 4)[0]
            return "win32-" + {0x8664: "x64", 0xAA64: "arm64"}.get(machine, f"machine{machine:#x}")
    return "unknown"


class BuildPyWithEngine(build_py):
    def run(self):
        name = "mailrender-engine" + (".exe" if engine_platform().startswith("win32") else "")
        bundled = os.path.join(HERE, "src", "mailrender", "_bin", engine_platform(), name)
        source = os.environ.get("MAILRENDER_ENGINE_BINARY") or os.path.join(
            HERE, "..", "..", "engine", "dist", engine_platform(), name
        )
        if os.path.isfile(source):
            os.makedirs(os.path.dirname(bundled), exist_ok=True)
            if (
                not os.path.exists(bundled)
                or os.path.getmtime(source) > os.path.getmtime(bundled)
                or os.path.getsize(source) != os.path.getsize(bundled)
            ):
                shutil.copy2(source, bundled)
        if not os.path.isfile(bundled):
            raise SystemExit(
                f"no engine executable for {engine_platform()}: run `make engine` in the repository, or set MAILRENDER_ENGINE_BINARY"
            )
        actual = executable_platform(bundled)
        if actual != engine_platform():
            raise SystemExit(
                f"the engine executable {bundled} is for {actual}, but this wheel is for {engine_platform()}: refusing to package it"
            )
        os.chmod(bundled, os.stat(bundled).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
        super().run()
        # package_data copies keep the mode on POSIX, but make sure the built copy is executable too.
        built = os.path.join(self.build_lib, "mailrender", "_bin", engine_platform(), name)
        if os.path.isfile(built):
            os.chmod(built, os.stat(built).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


class BinaryDistribution(Distribution):
    """Says "platform-specific" so files install to platlib (the wheel root), not .data/purelib."""

    def has_ext_modules(self):
        return True


class PlatformWheel(bdist_wheel):
    def finalize_options(self):
        super().finalize_options()
        self.root_is_pure = False  # a native binary inside: not a pure wheel

    def get_tag(self):
        _, _, plat = super().get_tag()
        return "py3", "none", os.environ.get("MAILRENDER_WHEEL_PLATFORM_TAG", "").strip() or plat


setup(distclass=BinaryDistribution, cmdclass={"build_py": BuildPyWithEngine, "bdist_wheel": PlatformWheel})
