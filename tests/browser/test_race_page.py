"""The race page (`race --out DIR` writes DIR/index.html) in a real browser: Debian's
headless Chromium driven by Selenium, on the page of a real race of five backends over
committed workloads. Run by scripts/browser-test.sh."""

import csv
import os
import pathlib
import subprocess
from xml.etree import ElementTree

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

ROOT = pathlib.Path(__file__).resolve().parents[2]
CLI = os.environ.get("DOMINOFIT_CLI", str(ROOT / "target" / "debug" / "dominofit"))
BACKENDS = "native,dp,varisat,portfolio,microlp"
# Relative to the repository, as a user types them (the page shows the command line).
WORKLOADS = ["models/observed.jsonl", "models/game.jsonl"]


@pytest.fixture(scope="module")
def race(tmp_path_factory):
    out = tmp_path_factory.mktemp("race") / "out"
    subprocess.run(["dominofit", "race", *WORKLOADS, "--backends", BACKENDS,
                    "--limit", "2", "--repeat", "1", "--timeout", "20", "--out", str(out)],
                   executable=CLI, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    with open(out / "runs.csv", newline="") as f:
        runs = list(csv.DictReader(f))
    return out, runs


@pytest.fixture
def page(race, browser):
    out, _ = race
    browser.get((out / "index.html").as_uri())
    return browser


def show_all(driver):
    Select(driver.find_element(By.ID, "page-size")).select_by_visible_text("all")


def table_rows(driver):
    # One call for the whole table: a WebDriver call per cell takes minutes.
    return driver.execute_script(
        "return [...document.querySelectorAll('#runs tbody tr')]"
        ".map((tr) => [...tr.cells].map((td) => td.textContent));")


def test_the_table_holds_the_rows_of_runs_csv(race, page):
    _, runs = race
    show_all(page)
    header = [th.get_attribute("textContent")
              for th in page.find_elements(By.CSS_SELECTOR, "#runs thead th")]
    assert header == list(runs[0].keys())
    assert table_rows(page) == [list(r.values()) for r in runs]


def test_sorting_by_time_orders_the_rows(race, page):
    show_all(page)
    page.find_element(By.CSS_SELECTOR, '#runs th[data-column="time_ms"]').click()
    column = list(race[1][0].keys()).index("time_ms")
    times = [row[column] for row in table_rows(page)]
    timed = [float(t) for t in times if t]
    assert timed == sorted(timed) and len(timed) > 1
    # Runs without a time (capped, failed) come last.
    assert all(t == "" for t in times[len(timed):])
    page.find_element(By.CSS_SELECTOR, '#runs th[data-column="time_ms"]').click()
    again = [float(row[column]) for row in table_rows(page) if row[column]]
    assert again == sorted(timed, reverse=True)


def test_a_status_filter_hides_the_other_rows(race, page):
    _, runs = race
    show_all(page)
    Select(page.find_element(By.ID, "filter-status")).select_by_value("unique")
    column = list(runs[0].keys()).index("status")
    rows = table_rows(page)
    assert rows and all(row[column] == "unique" for row in rows)
    assert len(rows) == sum(r["status"] == "unique" for r in runs) < len(runs)


def test_two_backends_give_one_point_per_instance(race, page):
    _, runs = race
    Select(page.find_element(By.ID, "scatter-x")).select_by_value("native")
    Select(page.find_element(By.ID, "scatter-y")).select_by_value("varisat")
    points = page.find_elements(By.CSS_SELECTOR, "#scatter-plot circle")
    instances = {(r["workload"], r["instance"]) for r in runs}
    assert len(points) == len(instances)


def test_clicking_an_instance_shows_its_board_and_tiling(race, page):
    out, runs = race
    board_name = "observed-8x8"
    cell = next(td for td in page.find_elements(By.CSS_SELECTOR, "#runs td.link")
                if td.text == board_name)
    cell.click()
    section = page.find_element(By.ID, "instance")
    assert section.is_displayed()
    assert board_name in page.find_element(By.ID, "instance-name").text
    # Every backend's run on it is listed.
    listed = page.find_elements(By.CSS_SELECTOR, "#instance-runs tbody tr")
    assert len(listed) == sum(r["instance"] == board_name for r in runs) == 5
    # The picture is the one `show --svg` draws of the board and its unique tiling.
    drawn = page.find_element(By.CSS_SELECTOR, "#instance-board svg")
    solution = ROOT / "models" / "observed" / "8x8.solution.json"
    board = ROOT / "models" / "observed" / "8x8.json"
    picture = out.parent / "8x8.svg"
    subprocess.run([CLI, "show", str(board), str(solution), "--svg", str(picture)], check=True)
    shown = picture.read_text()
    # Element by element, in order, with every attribute and text (the page's own
    # `class` names aside).
    def shapes(root):
        out = []
        for node in root.iter():
            tag = node.tag.split("}")[-1]
            attributes = {k: v for k, v in node.attrib.items() if k != "class"}
            out.append((tag, sorted(attributes.items()), (node.text or "").strip()))
        return out
    theirs = shapes(ElementTree.fromstring(shown))
    mine = shapes(ElementTree.fromstring(
        page.execute_script("return new XMLSerializer().serializeToString(arguments[0])",
                            drawn)))
    assert mine == theirs
    assert sum(tag == "circle" for tag, _, _ in mine) > 0
    # The README's pictures: the instance shown, and the top of the page.
    screenshot = os.environ.get("RACE_PAGE_SCREENSHOT")
    if screenshot:
        page.save_screenshot(screenshot.replace(".png", "-instance.png"))
        page.execute_script("window.scrollTo(0, 0)")
        page.save_screenshot(screenshot)
