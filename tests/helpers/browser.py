"""A headless Chromium for the tests that look at pages (the viewer, the web app), driven by
selenium with Debian's chromium and chromium-driver. Without Chromium the tests skip (and fail in
CI, conftest.py); with Chromium present, a missing driver or package is a failure, not a skip."""

import shutil

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")


def chromium(width, height, flags=()):
    """A started headless Chromium driver of the given window size, its console log kept;
    `flags`: more command-line switches of Chromium."""
    if not CHROMIUM:
        pytest.skip("Chromium is not installed (apt-get install chromium chromium-driver)")
    if not CHROMEDRIVER:
        pytest.fail("Chromium without its driver: apt-get install chromium-driver")
    try:
        import PIL  # noqa: F401  (reads the screenshots)
        import selenium.webdriver  # noqa: F401
    except ImportError as error:
        pytest.fail(f"the browser test needs the extra browser: pip install '.[browser]' ({error})")
    return start_chromium(width, height, flags)


def start_chromium(width, height, flags=()):
    """chromium() without the test's checks, for scripts/update_web_screenshots.py."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        f"--window-size={width},{height}",
        "--disable-dev-shm-usage",
        *flags,
    ):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


def set_viewport(driver, width, height):
    """Resize the window so that the page's viewport (`window.innerWidth` x `innerHeight`) is
    `width` x `height`: the window's size includes its own bars (a headless Chromium window of
    1280x720 shows pages in 1280x577). A resize reaches the page a moment later, so the window
    is corrected until the viewport holds still at the size. Returns the viewport reached."""
    import time

    inner = "return [window.innerWidth, window.innerHeight]"
    driver.set_window_size(width, height)
    deadline = time.monotonic() + 10
    seen = None
    while time.monotonic() < deadline:
        time.sleep(0.1)
        now = driver.execute_script(inner)
        if now != seen:  # still changing: look again
            seen = now
            continue
        if now == [width, height]:
            break
        window = driver.get_window_size()
        driver.set_window_size(window["width"] + width - now[0], window["height"] + height - now[1])
        seen = None
    return driver.execute_script(inner)
