//! `index.html`: a race's results as one page to browse, written beside runs.csv.
//!
//! The page is one self-contained file that opens from disk with nothing fetched: the
//! runs and the summary are embedded as JSON, the cactus and size plots as the same SVG
//! that race writes beside it, and a small script of its own (`page.js`, no library)
//! draws the tables, the filters and the scatter plot. A library was weighed and not
//! taken: a sortable, filterable table of 10,000 rows and one scatter plot need about
//! three hundred lines, less than any table or plot library, and nothing to vendor.
//!
//! Text from the race (board, workload and backend names, error messages, the command
//! line) is data: it reaches the page escaped inside JSON, where `<` is written
//! `\u003c` so no name can end the script, and the script puts it in with
//! `textContent`, never as markup.

use std::collections::HashMap;

use serde::Serialize;

use crate::escape::{json_in_script, xml};
use crate::puzzle::{Instance, InstanceJson, Solution};

use super::{RunRow, Summary, row_to_json};

const SCRIPT: &str = include_str!("page.js");
const STYLE: &str = include_str!("page.css");

/// What the page says of the race beyond its runs.
pub struct PageInfo<'a> {
    /// The heading: what was raced (a first solution, a uniqueness check, a count).
    pub what: &'a str,
    /// The command line that ran the race (or merged it), as typed.
    pub command: &'a str,
    /// The boards raced, by workload file, to draw an instance when it is clicked
    /// (`None` for merged shards, whose runs.csv files do not hold them).
    pub boards: Option<&'a [(String, Vec<Instance>)]>,
    /// The cactus and size plots, as written beside the page (`cactus.svg`, `size.svg`).
    pub plots: [&'a str; 2],
}

/// A board drawn on the page, with the first tiling a backend found for it.
#[derive(Serialize)]
struct Drawn<'a> {
    workload: &'a str,
    board: InstanceJson<'a>,
    /// The backend whose tiling this is.
    #[serde(skip_serializing_if = "Option::is_none")]
    backend: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tiling: Option<&'a Solution>,
}

/// Each board of `boards`, with the first tiling found for it among `rows`.
fn drawn<'a>(rows: &'a [RunRow], boards: &'a [(String, Vec<Instance>)]) -> Vec<Drawn<'a>> {
    let mut first: HashMap<(&str, &str), &RunRow> = HashMap::new();
    for row in rows.iter().filter(|r| r.tiling.is_some()) {
        first
            .entry((row.workload.as_str(), row.instance.as_str()))
            .or_insert(row);
    }
    let mut out = Vec::new();
    for (workload, instances) in boards {
        for instance in instances {
            let found = first.get(&(workload.as_str(), instance.name.as_str()));
            out.push(Drawn {
                workload,
                board: instance.json(),
                backend: found.map(|r| r.backend.as_str()),
                tiling: found.and_then(|r| r.tiling.as_ref()),
            });
        }
    }
    out
}

/// The page of a race: `rows` and `summary`, as written to runs.csv and summary.json.
///
/// # Errors
/// Only if a row or the summary cannot be written as JSON (never, for rows a race made).
pub fn race_page(
    rows: &[RunRow],
    summary: &Summary,
    info: &PageInfo<'_>,
) -> Result<String, serde_json::Error> {
    let runs = (rows.iter())
        .map(row_to_json)
        .collect::<Result<Vec<_>, _>>()?
        .join(",\n");
    let boards = info.boards.map(|b| drawn(rows, b)).unwrap_or_default();
    let data = format!(
        "{{\"what\":{},\"command\":{},\"summary\":{},\"boards\":{},\"runs\":[\n{}\n]}}",
        serde_json::to_string(info.what)?,
        serde_json::to_string(info.command)?,
        serde_json::to_string(summary)?,
        serde_json::to_string(&boards)?,
        runs
    );
    let title = format!("dominofit race: {}", info.what);
    Ok(format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n\
         <h1>{title}</h1>\n\
         <section id=\"about\"><h2>The race</h2><dl id=\"machine\"></dl></section>\n\
         <section><h2>Summary</h2><div id=\"summary\"></div></section>\n\
         <section><h2>Two backends, instance by instance</h2>\n\
         <p><label>x: <select id=\"scatter-x\"></select></label> \
         <label>y: <select id=\"scatter-y\"></select></label></p>\n\
         <div id=\"scatter\"></div></section>\n\
         <section><h2>Plots</h2><div class=\"plots\">\n{cactus}\n{size}\n</div></section>\n\
         <section><h2>Runs</h2>\n<p id=\"filters\">\
         <label>workload <select id=\"filter-workload\"></select></label> \
         <label>backend <select id=\"filter-backend\"></select></label> \
         <label>status <select id=\"filter-status\"></select></label> \
         <label>end <select id=\"filter-end\"></select></label> \
         <label>search <input id=\"filter-text\" type=\"search\"></label> \
         <label>rows a page <select id=\"page-size\"><option>100</option>\
         <option>1000</option><option value=\"0\">all</option></select></label> \
         <button id=\"page-previous\">previous</button> \
         <button id=\"page-next\">next</button> <span id=\"shown\"></span></p>\n\
         <table id=\"runs\"><thead></thead><tbody></tbody></table></section>\n\
         <section id=\"instance\" hidden><h2 id=\"instance-name\"></h2>\
         <div id=\"instance-board\"></div><p id=\"instance-tiling\"></p><table id=\"instance-runs\"><thead></thead><tbody></tbody></table></section>\n\
         <script type=\"application/json\" id=\"race-data\">{data}</script>\n\
         <script>\n{SCRIPT}</script>\n</body>\n</html>\n",
        title = xml(&title),
        cactus = info.plots[0],
        size = info.plots[1],
        data = json_in_script(&data),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_text_can_end_the_data_script() {
        let json = serde_json::to_string("</script><script>alert(1)</script>").unwrap();
        let safe = json_in_script(&json);
        assert!(!safe.contains("</"), "{safe}");
        let back: String = serde_json::from_str(&safe).unwrap();
        assert_eq!(back, "</script><script>alert(1)</script>");
    }
}
