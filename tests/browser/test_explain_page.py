"""The walkthrough page (`explain --format html`) in a real browser: Debian's headless
Chromium driven by Selenium, on a committed trial-level board and on a board with a
hostile name. Run by scripts/browser-test.sh."""

import json
import os
import pathlib
import subprocess

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

ROOT = pathlib.Path(__file__).resolve().parents[2]
CLI = os.environ.get("DOMINOFIT_CLI", str(ROOT / "target" / "debug" / "dominofit"))
BOARD = ["models/levels.jsonl", "--instance", "trial-8x8-s5-1"]
HOSTILE = ('{"name": "</script><script>window.pwned = 1</script>", "rows": 2, "cols": 2, '
           '"blocked": [], "row_clues": [2, 2], "col_clues": [0, 4]}')


def dominofit(*args, stdin=None):
    return subprocess.run(["dominofit", *args], executable=CLI, cwd=ROOT, check=True,
                          input=stdin, capture_output=True, text=True).stdout


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    out = tmp_path_factory.mktemp("explain")
    dominofit("explain", *BOARD, "--format", "html", "-o", str(out / "trial.html"))
    (out / "hostile.html").write_text(dominofit("explain", "-", "--format", "html",
                                                stdin=HOSTILE))
    walk = json.loads(dominofit("explain", *BOARD, "--format", "json"))
    return out, walk


def count(driver, selector):
    return len(driver.find_elements(By.CSS_SELECTOR, selector))


def text(driver, element_id):
    return driver.find_element(By.ID, element_id).text


def pieces(solution):
    return len(solution["vertical"]) + len(solution["horizontal"])


def test_the_page_steps_through_the_walkthrough(pages, browser):
    out, walk = pages
    steps = walk["steps"]
    browser.get((out / "trial.html").as_uri())
    assert count(browser, "#steps li") == len(steps)
    assert text(browser, "position") == f"start ({len(steps)} steps)"
    assert count(browser, "#board rect.piece") == 0
    browser.find_element(By.ID, "next").click()
    assert text(browser, "position") == f"step 1 of {len(steps)}"
    assert text(browser, "reason") == steps[0]["reason"]
    assert count(browser, "#board rect.reason") == len(steps[0]["cells"])
    assert count(browser, "#board line.ruled-out") == pieces(steps[0]["ruled_out"])
    # The first trial step: its piece crossed, its reason shown, the list marks it.
    trial = next(i for i, s in enumerate(steps) if s["rule"] == "trial")
    browser.find_elements(By.CSS_SELECTOR, "#steps li")[trial].click()
    assert text(browser, "rule") == "trial: trial"
    assert text(browser, "reason").startswith("Suppose ")
    assert count(browser, "#board line.ruled-out") == 1
    assert count(browser, "#steps li.current") == 1
    placed_before = sum(pieces(s["placed"]) for s in steps[:trial])
    assert count(browser, "#board rect.piece") == placed_before
    # The arrow keys move one step; the end shows the whole tiling and the ending.
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    assert text(browser, "position") == f"step {trial + 2} of {len(steps)}"
    browser.find_element(By.ID, "last").click()
    assert walk["outcome"] == "solved"
    assert text(browser, "ending").startswith("Solved")
    assert count(browser, "#board rect.piece") == pieces(walk["placed"])
    browser.find_element(By.ID, "first").click()
    assert count(browser, "#board rect.piece") == 0


def test_a_hostile_name_is_text(pages, browser):
    out, _ = pages
    browser.get((out / "hostile.html").as_uri())
    assert browser.execute_script("return window.pwned === undefined")
    assert browser.find_element(By.TAG_NAME, "h1").text == \
        "dominofit walkthrough: </script><script>window.pwned = 1</script>"
    browser.find_element(By.ID, "last").click()
    assert text(browser, "ending").startswith("Solved")
