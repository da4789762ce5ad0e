//! How Ctrl-C ends a command, for the exit status paragraph of each command's help: one
//! sentence, so that every command says it the same way (a test runs each command and
//! compares).

/// How Ctrl-C ends a command that does not wind down by itself.
macro_rules! ends_on_ctrl_c {
    () => {
        "130 on Ctrl-C or SIGTERM, which end it at once and write nothing more"
    };
}
pub(super) use ends_on_ctrl_c;
