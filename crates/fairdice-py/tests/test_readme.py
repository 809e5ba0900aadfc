"""The README's examples run as written."""

from __future__ import annotations

import doctest
from pathlib import Path


def test_the_readme_tour():
    readme = Path(__file__).resolve().parents[1] / "README.md"
    # Code fences end an example's expected output, as a blank line does.
    text = "\n".join("" if line.startswith("```") else line for line in readme.read_text().splitlines())
    test = doctest.DocTestParser().get_doctest(text, {}, "README.md", str(readme), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert len(test.examples) > 20
    assert runner.failures == 0


def test_the_top_level_readmes_python_example():
    readme = Path(__file__).resolve().parents[3] / "README.md"
    text = readme.read_text()
    block = text.split("```python\n", 1)[1].split("```", 1)[0]
    test = doctest.DocTestParser().get_doctest(block, {}, "README.md", str(readme), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert len(test.examples) >= 2
    assert runner.failures == 0


def test_the_installed_package_says_its_license_and_where_it_lives():
    from importlib.metadata import metadata

    meta = metadata("fairdice")
    assert meta["License-Expression"] == "MIT OR Apache-2.0"
    urls = dict(url.split(", ", 1) for url in meta.get_all("Project-URL") or [])
    assert set(urls) == {"Homepage", "Repository", "Documentation", "Issues"}
    assert all(url.startswith("https://github.com/fairdice/fairdice") for url in urls.values())


def test_importing_the_package_prints_nothing():
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-W", "default", "-c", "import fairdice"], capture_output=True, text=True, check=True
    )
    assert (done.stdout, done.stderr) == ("", "")
