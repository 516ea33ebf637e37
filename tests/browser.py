"""Debian's chromium driven by Selenium for the phone page tests (never a downloaded browser)."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
PHONE = (412, 915)  # CSS pixels of a common phone held upright


def available() -> str | None:
    """None when a browser test can run, else why not."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed"
    for path in (CHROMIUM, CHROMEDRIVER):
        if not Path(path).exists() and not shutil.which(Path(path).name):
            return f"{path} is missing (apt-get install chromium chromium-driver)"
    return None


def phone_browser(profile: str | Path | None = None):
    """A headless chromium with a phone-sized window and its own fresh profile (its own localStorage)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium") or CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", f"--window-size={PHONE[0]},{PHONE[1]}", "--force-device-scale-factor=1",
                 f"--user-data-dir={profile or tempfile.mkdtemp(prefix='hs-chromium-')}"):
        options.add_argument(flag)
    options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": PHONE[0], "height": PHONE[1],
                                                                          "pixelRatio": 1.0}})
    service = Service(CHROMEDRIVER if Path(CHROMEDRIVER).exists() else shutil.which("chromedriver"))
    return webdriver.Chrome(options=options, service=service)
