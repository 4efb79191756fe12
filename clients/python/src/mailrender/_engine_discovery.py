"""Finding the engine executable: ``engine_path=``, ``MAILRENDER_ENGINE_PATH``, or the one in the wheel."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from typing import Optional

from ._constants import ENGINE_NAME, ENV_ENGINE_PATH
from ._errors import MailrenderError

_BIN_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_bin")


def _machine() -> str:
    if sys.platform == "win32":
        import platform  # Windows has no os.uname; elsewhere platform.machine() is os.uname().machine

        return platform.machine()
    return os.uname().machine


def engine_platform() -> str:
    """The engine's folder name for this machine, in Node's words (``linux-x64``, ``darwin-arm64``)."""
    system = "linux" if sys.platform.startswith("linux") else sys.platform  # darwin, win32
    machine = _machine().lower()
    arch = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}.get(machine, machine)
    return f"{system}-{arch}"


def bundled_engine_path() -> str:
    name = ENGINE_NAME + (".exe" if sys.platform == "win32" else "")
    return os.path.join(_BIN_DIR, engine_platform(), name)


def find_engine(engine_path: Optional[str], env: Mapping[str, str]) -> str:
    """``engine_path=``, else ``MAILRENDER_ENGINE_PATH``, else the binary bundled in the wheel."""
    if engine_path is not None:
        source, path = "engine_path=", engine_path
    elif env.get(ENV_ENGINE_PATH, "").strip() != "":
        source, path = ENV_ENGINE_PATH, env[ENV_ENGINE_PATH].strip()
    else:
        path = bundled_engine_path()
        if not os.path.isfile(path):
            raise MailrenderError(
                "UNKNOWN",
                f"No mailrender engine for {engine_platform()}: this mailrender install has no bundled engine at {path}. "
                f"Install the platform wheel for this machine (pip install --force-reinstall mailrender), or build the "
                f"engine (make engine in the mailrender repository) and set {ENV_ENGINE_PATH} or engine_path= to it.",
                0,
            )
        return path
    if not os.path.isfile(path):
        raise MailrenderError(
            "UNKNOWN",
            f"The mailrender engine given by {source} does not exist: {path}. Fix the path, or unset it to use the engine bundled with the package.",
            0,
        )
    if sys.platform != "win32" and not os.access(path, os.X_OK):
        raise MailrenderError(
            "UNKNOWN", f"The mailrender engine given by {source} is not executable: {path}. Run chmod +x on it.", 0
        )
    return os.path.abspath(path)
