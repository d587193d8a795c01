"""The build steps that pyproject.toml cannot say: compile the translation catalogs, and the
games' compiled cores.

``build_catalogs`` is a sub-command of setuptools' ``build``, so it runs for a wheel (also one
built from the sdist) and for ``pip install -e .``. It compiles every
``src/azul/i18n/locales/*/LC_MESSAGES/azul.po`` with Babel (a build requirement) into an
``azul.mo``: into the build folder for a wheel, and in place, beside the ``.po``, for an editable
install, whose package is imported from the source tree.

The compiled cores (``src/azul/<game>/_core.pyx``, azul.native) are C extensions that Cython (a
build requirement) translates and the machine's C compiler builds. They are optional: without a
compiler the build says so and the package runs on its Python engines. Everything else is in
pyproject.toml.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from setuptools import Command, Extension, setup
from setuptools.command.build import build

HERE = Path(__file__).resolve().parent
PACKAGE = "azul.i18n"


def _mofiles():
    """src/azul/i18n/mofiles.py, loaded from its file: the package is not installed yet."""
    path = HERE / "src" / "azul" / "i18n" / "mofiles.py"
    spec = importlib.util.spec_from_file_location("_azul_mofiles", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildCatalogs(Command):
    """Compile the .po catalogs into .mo files (a setuptools build sub-command)."""

    description = "compile the translation catalogs (.po) into .mo files"
    user_options: list = []  # noqa: RUF012 - the distutils interface

    def initialize_options(self) -> None:
        self.build_lib = None
        self.editable_mode = False

    def finalize_options(self) -> None:
        self.set_undefined_options("build_py", ("build_lib", "build_lib"))

    def _pairs(self) -> list[tuple[Path, Path, Path]]:
        """(source .po, .mo written by this build, .mo as it lies in the build folder)."""
        source = Path(self.get_finalized_command("build_py").get_package_dir(PACKAGE))
        built = Path(self.build_lib, *PACKAGE.split("."))
        pairs = []
        for po in _mofiles().sources(source):
            relative = po.relative_to(source).with_suffix(".mo")
            target = source / relative if self.editable_mode else built / relative
            pairs.append((po, target, built / relative))
        return pairs

    def run(self) -> None:
        write = _mofiles().write
        for po, mo, _ in self._pairs():
            if write(po, mo):
                self.announce(f"compiled {po} -> {mo}", level=2)

    def get_source_files(self) -> list[str]:
        return [str(po) for po, _, _ in self._pairs()]

    def get_outputs(self) -> list[str]:
        return [str(built) for _, _, built in self._pairs()]

    def get_output_mapping(self) -> dict[str, str]:
        if not self.editable_mode:
            return {}  # generated, not copied from a file of the project
        return {str(built): str(mo) for _, mo, built in self._pairs()}


class Build(build):
    """setuptools' build, then build_catalogs."""

    sub_commands = [*build.sub_commands, ("build_catalogs", None)]  # noqa: RUF012


CORES = [
    Extension(f"azul.{game}._core", [f"src/azul/{game}/_core.pyx"], optional=True)
    for game in ("pavilion", "sintra")
]

setup(cmdclass={"build": Build, "build_catalogs": BuildCatalogs}, ext_modules=CORES)
