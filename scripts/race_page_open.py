"""Opens race pages in headless Chromium and prints how long each took to load
(`loadEventEnd` of the navigation, in ms) over several openings, and any console error.
Usage: race_page_open.py [--times N] PAGE.html..."""

import argparse
import pathlib
import statistics

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--times", type=int, default=5)
    parser.add_argument("pages", nargs="+")
    args = parser.parse_args()
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                 "--window-size=1400,1000"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"),
                              options=options)
    try:
        print("| page | size (MB) | load, median (ms) | each (ms) | console errors |")
        print("|---|---:|---:|---|---:|")
        for page in args.pages:
            path = pathlib.Path(page).resolve()
            times = []
            for _ in range(args.times):
                driver.get(path.as_uri())
                times.append(driver.execute_script(
                    "return performance.getEntriesByType('navigation')[0].loadEventEnd"))
            errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
            each = ", ".join(str(round(t)) for t in times)
            print(f"| {page} | {path.stat().st_size / 1e6:.1f} | {statistics.median(times):.0f} "
                  f"| {each} | {len(errors)} |")
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
