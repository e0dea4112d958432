"""Headless Chromium for the report's web page: the screenshots of ``cardodds report
--screenshots`` and the browser tests (``tests/test_report_html.py``) open it the same way.

The browser is the system's Chromium (Debian: ``apt-get install chromium chromium-driver``)
driven by Selenium; nothing is downloaded. Without them, :func:`open_browser` raises
:class:`BrowserMissing` with the command that installs them.
"""

from __future__ import annotations

import shutil
from pathlib import Path

#: Window sizes of the screenshots (CSS pixels): a laptop and a phone.
WIDTHS = {"desktop": (1280, 900), "phone": (375, 812)}
INSTALL = "apt-get install chromium chromium-driver; pip install selenium (or pip install 'cardodds[test]')"


class BrowserMissing(RuntimeError):
    """No headless Chromium to open the page with (the message says how to install it)."""


def _which(*names: str) -> str | None:
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    return None


def locate() -> tuple[str, str]:
    """The paths of Chromium and its driver; :class:`BrowserMissing` when either, or
    Selenium, is not installed (checked before a long report run, not after it)."""
    chromium = _which("chromium", "chromium-browser", "google-chrome")
    driver = _which("chromedriver")
    if chromium is None or driver is None:
        missing = " and ".join(n for n, p in (("chromium", chromium), ("chromedriver", driver)) if p is None)
        raise BrowserMissing(f"{missing} not found: {INSTALL}")
    try:
        import selenium  # noqa: F401
    except ImportError:
        raise BrowserMissing(f"selenium is not installed: {INSTALL}") from None
    return chromium, driver


def open_browser(width: int = 1280, height: int = 900):
    """A headless Chromium (a Selenium driver) whose browser log and network log
    (``goog:loggingPrefs``: console messages, every request) can be read with ``get_log``."""
    chromium, driver = locate()
    from selenium import webdriver

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
                "--force-device-scale-factor=1", "--disable-extensions", "--no-first-run", "--lang=en-US",
                f"--window-size={width},{height}"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    return webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path=driver))


def set_viewport(browser, width: int, height: int) -> None:
    """Show the page as a screen ``width`` CSS pixels wide would (a phone below 600)."""
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})


def screenshots(page: Path, folder: Path) -> list[Path]:
    """A screenshot of the top of every section of ``page`` at each of :data:`WIDTHS`,
    saved as ``<folder>/<section>-<desktop|phone>.png``; returns the files written."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    browser = open_browser()
    written = []
    try:
        browser.get(Path(page).resolve().as_uri())
        sections = browser.execute_script("return Array.from(document.querySelectorAll('section.report'), s => s.id)")
        for kind, (width, height) in WIDTHS.items():
            set_viewport(browser, width, height)
            for name in sections:
                browser.execute_script("document.getElementById(arguments[0]).scrollIntoView()", name)
                path = folder / f"{name}-{kind}.png"
                path.write_bytes(browser.get_screenshot_as_png())
                written.append(path)
    finally:
        browser.quit()
    return written
