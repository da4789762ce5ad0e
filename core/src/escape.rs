//! Text a user supplies — a board's name, a path — is data, never syntax.
//!
//! A name is any JSON string, so it may hold newlines, control characters, terminal
//! escape sequences or markup. Each place that writes one into something with a syntax
//! of its own goes through exactly one of these functions:
//!
//! * [`comment`]: comment lines of emitted models (DIMACS, LP, OPB, MCC). A newline there
//!   would start a new line of the model — a name could add clauses or constraints and
//!   change the answer — and some readers choke on long lines, so the name is restricted
//!   to a safe alphabet and a length, not escaped.
//! * [`terminal`]: text output and messages. Control characters (and the Unicode
//!   direction overrides) are shown as `\u{…}` so that a name cannot forge output lines or
//!   drive the terminal.
//! * [`xml`]: SVG text, escaped for markup, with the characters XML 1.0 forbids shown as
//!   in [`terminal`].
//! * [`markdown`]: a table cell or list item of `summary.md`.
//! * [`file_stem`]: a file name made from a board's name (`emit -o DIR`).
//! * [`json_in_script`]: JSON embedded in a page's `<script>` (the race page, the
//!   walkthrough page).

use std::fmt::Write as _;

/// The most characters of a name kept in a comment line or a file name.
pub const MAX_NAME_CHARS: usize = 64;

/// The characters kept as they are in comments and file names.
fn portable(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')
}

/// JSON that cannot end the `<script>` holding it: every `<` (only ever inside a
/// string) written as `\u003c`, which JSON reads back as the same character.
pub fn json_in_script(json: &str) -> String {
    json.replace('<', "\\u003c")
}

/// A name for a comment line: ASCII letters, digits, `-`, `_` and `.` are kept, every
/// other character becomes `_`, and a name longer than [`MAX_NAME_CHARS`] is cut there and
/// marked with `...`. The result never holds a line break or a comment or syntax
/// character of any emitted format.
pub fn comment(name: &str) -> String {
    restrict(name)
}

/// A file name stem for a board: the same alphabet and length as [`comment`], never
/// empty and never starting with a dot, which would make a hidden or special file (`.`,
/// `..`, or a name that `check-certificate` takes for a bundle still being written).
pub fn file_stem(name: &str) -> String {
    let stem = restrict(name);
    if stem.is_empty() || stem.starts_with('.') {
        format!("_{stem}")
    } else {
        stem
    }
}

fn restrict(name: &str) -> String {
    let mut out: String = name
        .chars()
        .take(MAX_NAME_CHARS)
        .map(|c| if portable(c) { c } else { '_' })
        .collect();
    if name.chars().nth(MAX_NAME_CHARS).is_some() {
        out.push_str("...");
    }
    out
}

/// Characters that would act on a terminal or reorder the text around them.
fn unsafe_on_terminal(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// A name or path for text output and messages: control characters and direction
/// overrides are written `\u{…}`; everything else, Unicode letters included, is kept.
pub fn terminal(text: &str) -> String {
    if !text.chars().any(unsafe_on_terminal) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if unsafe_on_terminal(c) {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        } else {
            out.push(c);
        }
    }
    out
}

/// Text for XML content or a quoted attribute: markup characters as entities, and the
/// characters XML 1.0 does not allow at all (and the other terminal-unsafe ones) written
/// as in [`terminal`].
pub fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in terminal(text).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\u{FFFE}' | '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// Text for Markdown (a table cell, a list item): as in [`terminal`], with every
/// character Markdown gives a meaning to escaped by a backslash, so a name cannot end a
/// table cell, open a link or start markup.
pub fn markdown(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in terminal(text).chars() {
        if matches!(
            c,
            '\\' | '|' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '#' | '!' | '~'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comment_keeps_portable_names_and_restricts_the_rest() {
        assert_eq!(comment("observed-8x8"), "observed-8x8");
        assert_eq!(comment("pwn\np cnf 1 2\n1 0"), "pwn_p_cnf_1_2_1_0");
        assert_eq!(comment("a\\b*c|d"), "a_b_c_d");
        let long = "x".repeat(5000);
        let cut = comment(&long);
        assert_eq!(cut.len(), MAX_NAME_CHARS + 3);
        assert!(cut.ends_with("..."));
        assert_eq!(
            comment(&"y".repeat(MAX_NAME_CHARS)),
            "y".repeat(MAX_NAME_CHARS)
        );
    }

    #[test]
    fn file_stems_are_never_hidden_or_special() {
        assert_eq!(file_stem(""), "_");
        assert_eq!(file_stem(".."), "_..");
        assert_eq!(file_stem("a/b"), "a_b");
        assert_eq!(file_stem("../etc"), "_.._etc");
        assert_eq!(file_stem(".partial-x"), "_.partial-x");
    }

    #[test]
    fn terminal_escapes_controls_only() {
        assert_eq!(terminal("plain ü name"), "plain ü name");
        assert_eq!(terminal("a\nb"), "a\\u{a}b");
        assert_eq!(terminal("\x1b[31mred"), "\\u{1b}[31mred");
        assert_eq!(terminal("x\u{202E}y"), "x\\u{202e}y");
    }

    #[test]
    fn markdown_cells_cannot_be_broken() {
        assert_eq!(markdown("a|b"), "a\\|b");
        // The backslash of `\u{a}` is escaped too, so that Markdown shows it.
        assert_eq!(markdown("x\n| y"), "x\\\\u{a}\\| y");
        assert_eq!(markdown("planted-8x8-s1-2"), "planted-8x8-s1-2");
    }

    #[test]
    fn xml_escapes_markup_and_forbidden_characters() {
        assert_eq!(xml("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&apos;");
        assert_eq!(xml("bell\u{7}"), "bell\\u{7}");
    }
}
