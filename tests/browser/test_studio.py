"""The studio page (scripts/studio.sh builds it) in a real browser: Debian's headless
Chromium driven by Selenium, the page served on 127.0.0.1 as scripts/studio.sh --serve
does, its engine the WebAssembly module in a worker. Every answer the page shows is held
to the command line's on the same board. Run by scripts/browser-test.sh."""

import functools
import http.server
import json
import os
import pathlib
import shutil
import subprocess
import threading

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

ROOT = pathlib.Path(__file__).resolve().parents[2]
CLI = os.environ.get("DOMINOFIT_CLI", str(ROOT / "target" / "debug" / "dominofit"))
STUDIO = pathlib.Path(os.environ.get("DOMINOFIT_STUDIO", str(ROOT / "target" / "studio")))
# The page's words for `solve --limit 2`'s statuses.
VERDICT = {"unique": "unique", "multiple": "several", "unsat": "none"}


def dominofit(*args, check=True):
    return subprocess.run(["dominofit", *args], executable=CLI, cwd=ROOT, check=check,
                          capture_output=True, text=True)


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def studio():
    if not (STUDIO / "index.html").is_file():
        pytest.fail(f"{STUDIO} holds no built studio: run scripts/studio.sh")
    handler = functools.partial(Quiet, directory=str(STUDIO))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


def cell(driver, r, c):
    return driver.find_element(By.CSS_SELECTOR, f'#grid .cell[data-r="{r}"][data-c="{c}"]')


def choose(driver, name, value):
    driver.find_element(By.CSS_SELECTOR, f'input[name="{name}"][value="{value}"]').click()


def text(driver, element_id):
    return driver.find_element(By.ID, element_id).text


def settled(driver, element_id, timeout=60):
    """The text of a readout once the engine has answered (no `…` left)."""
    WebDriverWait(driver, timeout).until(
        lambda d: text(d, element_id) not in ("", "…", "–", "place pieces on every open cell"))
    return text(driver, element_id)


def exported(driver, button):
    driver.find_element(By.ID, button).click()
    WebDriverWait(driver, 30).until(lambda d: d.find_element(By.ID, "export").get_attribute("value"))
    return driver.find_element(By.ID, "export").get_attribute("value")


def test_a_designer_draws_a_board_and_the_page_agrees_with_the_command_line(browser, studio, tmp_path):
    browser.get(studio)
    size = browser.find_element(By.ID, "rows")
    size.clear()
    size.send_keys("6")
    browser.find_element(By.ID, "new-board").click()
    # Two cells blocked by one drag, two by clicks.
    ActionChains(browser).click_and_hold(cell(browser, 0, 0)).move_to_element(cell(browser, 0, 1)) \
        .release().perform()
    cell(browser, 5, 4).click()
    cell(browser, 5, 5).click()
    blocked = {(int(e.get_attribute("data-r")), int(e.get_attribute("data-c")))
               for e in browser.find_elements(By.CSS_SELECTOR, "#grid .cell.blocked")}
    assert blocked == {(0, 0), (0, 1), (5, 4), (5, 5)}
    # A tiling: vertical pieces down columns 0 and 1 below the blocked cells, by clicks
    # and by drags (down and up); horizontal pieces elsewhere, by clicks and a drag
    # from right to left.
    choose(browser, "mode", "vertical")
    for r, c in ((1, 0), (3, 0)):
        cell(browser, r, c).click()
    choose(browser, "mode", "drag")
    for start, end in (((1, 1), (2, 1)), ((4, 1), (3, 1)), ((5, 1), (5, 0))):
        ActionChains(browser).click_and_hold(cell(browser, *start)) \
            .move_to_element(cell(browser, *end)).release().perform()
    choose(browser, "mode", "horizontal")
    for r in range(6):
        for c in (2, 4):
            if (r, c) != (5, 4):
                cell(browser, r, c).click()
    assert text(browser, "message") == ""
    dots = {(int(e.get_attribute("data-r")), int(e.get_attribute("data-c"))): e.text
            for e in browser.find_elements(By.CSS_SELECTOR, "#grid .cell.piece")}
    # The dragged pieces lie where they were dragged, with their dots: a vertical
    # piece's on its top cell, a horizontal piece's two on its right cell.
    assert (dots[(1, 1)], dots[(2, 1)], dots[(3, 1)], dots[(4, 1)]) == ("●", "", "●", "")
    assert (dots[(5, 0)], dots[(5, 1)]) == ("", "●●")
    verdict = settled(browser, "verdict")
    level = settled(browser, "level")
    board = json.loads(exported(browser, "export-instance"))
    # The clues shown are the board's.
    shown_rows = [int(e.text) for e in browser.find_elements(By.CSS_SELECTOR, "#grid .row-clue")]
    shown_cols = [int(e.text) for e in browser.find_elements(By.CSS_SELECTOR, "#grid .col-clue")]
    assert (shown_rows, shown_cols) == (board["row_clues"], board["col_clues"])
    path = tmp_path / "board.json"
    path.write_text(json.dumps(board))
    solved = json.loads(dominofit("solve", str(path), "--limit", "2", "--format", "json").stdout)
    assert verdict == VERDICT[solved["status"]]
    graded = json.loads(dominofit("grade", str(path), "--format", "json").stdout)
    expected_level = f"{graded['level_number']}: {graded['level']}" if graded["level"] else "none"
    assert level == expected_level
    # The tiling drawn is accepted by the verifier.
    tiling = tmp_path / "board.solution.json"
    tiling.write_text(exported(browser, "export-solution"))
    verified = dominofit("verify", str(path), str(tiling))
    assert ": valid: " in verified.stdout
    # The cells where tilings differ are the command line's.
    shared = json.loads(dominofit("shared", str(path), "--format", "json").stdout)
    settled(browser, "differ")
    marked = {(int(e.get_attribute("data-r")) + 1, int(e.get_attribute("data-c")) + 1)
              for e in browser.find_elements(By.CSS_SELECTOR, "#grid .cell.differs")}
    assert marked == {tuple(c) for c in shared["differ"]}
    # With STUDIO_SCREENSHOT=docs/studio.png the designer's view as README shows it.
    screenshot = os.environ.get("STUDIO_SCREENSHOT")
    if screenshot:
        browser.save_screenshot(screenshot)

    # The player: a hint names its cells, highlighted, with its reason.
    choose(browser, "view", "player")
    assert browser.find_elements(By.CSS_SELECTOR, "#grid .cell.piece") == []
    browser.find_element(By.ID, "hint").click()
    WebDriverWait(browser, 30).until(lambda d: text(d, "hint-reason"))
    hint = json.loads(dominofit("hint", str(path), "--format", "json").stdout)
    step = hint["steps"][0]
    assert text(browser, "hint-reason") == step["reason"]
    lit = {(int(e.get_attribute("data-r")) + 1, int(e.get_attribute("data-c")) + 1)
           for e in browser.find_elements(By.CSS_SELECTOR, "#grid .cell.hinted")}
    assert lit == {tuple(c) for c in step["cells"]}
    # The hint's proof: the command line's files, byte for byte, which VeriPB accepts.
    browser.find_element(By.ID, "hint-proof").click()
    WebDriverWait(browser, 30).until(
        lambda d: len(d.find_elements(By.CSS_SELECTOR, "#downloads a")) == 2)
    offered = {}
    for link in browser.find_elements(By.CSS_SELECTOR, "#downloads a"):
        offered[link.get_attribute("download")] = browser.execute_async_script(
            "fetch(arguments[0]).then((r) => r.text()).then(arguments[1]);", link.get_attribute("href"))
    proof_dir = tmp_path / "proof"
    dominofit("hint", str(path), "--proof", str(proof_dir))
    assert offered == {name: (proof_dir / name).read_text() for name in ("hint.opb", "hint.pbp")}
    assert browser.find_element(By.ID, "export").get_attribute("value") == offered["hint.pbp"]
    if shutil.which("veripb"):
        subprocess.run(["veripb", str(proof_dir / "hint.opb"), str(proof_dir / "hint.pbp")], check=True,
                       capture_output=True)
    # Check: from no piece there is a tiling; a piece in no tiling is named.
    browser.find_element(By.ID, "check").click()
    WebDriverWait(browser, 30).until(lambda d: text(d, "check-result"))
    assert text(browser, "check-result") == "there is still a tiling from here"


def test_a_board_generated_at_a_level_grades_at_that_level(browser, studio, tmp_path):
    browser.get(studio)
    for field, value in (("rows", "8"), ("cols", "8"), ("seed", "5")):
        box = browser.find_element(By.ID, field)
        box.clear()
        box.send_keys(value)
    browser.find_element(By.CSS_SELECTOR, '#level-choice option[value="3"]').click()
    browser.find_element(By.ID, "generate-level").click()
    assert settled(browser, "level", timeout=120) == "3: pairs"
    assert settled(browser, "verdict") == "unique"
    board = json.loads(exported(browser, "export-instance"))
    assert board["name"] == "pairs-8x8-s5-1"
    path = tmp_path / "board.json"
    path.write_text(json.dumps(board))
    graded = json.loads(dominofit("grade", str(path), "--format", "json").stdout)
    assert (graded["level"], graded["status"]) == ("pairs", "unique")
    made = dominofit("generate", "--unique", "--level", "pairs", "--rows", "8", "--cols", "8",
                     "--seed", "5").stdout
    assert json.loads(made) == board


def test_a_drawn_shape_filled_with_a_random_tiling(browser, studio, tmp_path):
    browser.get(studio)
    browser.find_element(By.ID, "new-board").click()
    cell(browser, 2, 2).click()
    cell(browser, 2, 3).click()
    browser.find_element(By.ID, "random-tiling").click()
    verdict = settled(browser, "verdict")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#grid .cell.piece")) == 34
    path, tiling = tmp_path / "board.json", tmp_path / "board.solution.json"
    path.write_text(exported(browser, "export-instance"))
    tiling.write_text(exported(browser, "export-solution"))
    assert ": valid: " in dominofit("verify", str(path), str(tiling)).stdout
    solved = json.loads(dominofit("solve", str(path), "--limit", "2", "--format", "json").stdout)
    assert verdict == VERDICT[solved["status"]]


def test_bad_json_is_one_message_and_a_name_stays_text(browser, studio):
    browser.get(studio)
    box = browser.find_element(By.ID, "import")
    box.send_keys('{"rows": 2, "cols": ')
    browser.find_element(By.ID, "import-button").click()
    WebDriverWait(browser, 30).until(lambda d: text(d, "message"))
    assert "malformed JSON" in text(browser, "message")
    box.clear()
    box.send_keys('{"name": "<img src=x onerror=window.pwned=1>", "rows": 2, "cols": 2, '
                  '"blocked": [], "row_clues": [2, 2], "col_clues": [0, 4]}')
    browser.find_element(By.ID, "import-button").click()
    verdict = settled(browser, "verdict")
    assert verdict == "unique"
    assert browser.execute_script("return window.pwned === undefined")
    svg = exported(browser, "export-svg")
    assert "&lt;img" in svg and "<img" not in svg


def test_a_large_board_stops_at_its_time_limit_and_the_page_stays_live(browser, studio):
    browser.get(studio)
    for field, value in (("rows", "64"), ("cols", "64"), ("timeout", "300"), ("seed", "5")):
        box = browser.find_element(By.ID, field)
        box.clear()
        box.send_keys(value)
    browser.find_element(By.ID, "random").click()
    # While the engine works, the page answers: a mode is chosen at once.
    choose(browser, "mode", "erase")
    assert browser.find_element(By.CSS_SELECTOR, 'input[name="mode"][value="erase"]').is_selected()
    verdict = settled(browser, "verdict", timeout=120)
    assert verdict in ("unique", "several", "unknown (time ran out)"), verdict
    assert len(browser.find_elements(By.CSS_SELECTOR, "#grid .cell")) == 64 * 64
