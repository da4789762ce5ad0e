//! The walkthrough as one self-contained page: the board drawn at each step, the step's
//! reason beside it, and buttons (or the arrow keys) to go back and forth.
//!
//! As with the race page, nothing is fetched: the board and the walkthrough are embedded
//! as JSON (`<` written `\u003c`, so no name can end the script), and a small script of
//! its own (`page.js`) draws the board as SVG, putting every text in with `textContent`.

use serde::Serialize;

use super::Walkthrough;
use crate::escape::{json_in_script, xml};
use crate::puzzle::{Instance, InstanceJson};

const SCRIPT: &str = include_str!("page.js");
const STYLE: &str = include_str!("page.css");

#[derive(Serialize)]
struct Data<'a> {
    board: InstanceJson<'a>,
    walk: &'a Walkthrough,
}

/// The page of `walk`, a walkthrough of `instance`.
///
/// # Errors
/// Only if the walkthrough cannot be written as JSON (never, for one `explain` made).
pub fn page(instance: &Instance, walk: &Walkthrough) -> Result<String, serde_json::Error> {
    let data = serde_json::to_string(&Data {
        board: instance.json(),
        walk,
    })?;
    let title = format!("dominofit walkthrough: {}", instance.name);
    Ok(format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n\
         <h1>{title}</h1>\n\
         <p id=\"controls\"><button id=\"first\">start</button> \
         <button id=\"previous\">previous</button> \
         <button id=\"next\">next</button> <button id=\"last\">end</button> \
         <input id=\"position-range\" type=\"range\" min=\"0\" value=\"0\"> \
         <span id=\"position\"></span></p>\n\
         <div class=\"walk\"><div id=\"board\"></div>\n\
         <div id=\"explanation\"><p id=\"rule\"></p><p id=\"reason\"></p>\
         <p id=\"ending\"></p></div></div>\n\
         <section><h2>Steps</h2><ol id=\"steps\"></ol></section>\n\
         <script type=\"application/json\" id=\"walk-data\">{data}</script>\n\
         <script>\n{SCRIPT}</script>\n</body>\n</html>\n",
        title = xml(&title),
        data = json_in_script(&data),
    ))
}
