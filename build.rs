//! Records the git commit the binary is built from, for `summary.json` (a race report
//! says which dominofit measured it). Outside a git checkout (a crate from crates.io)
//! the commit is `unknown`.

fn main() {
    let commit = std::process::Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .ok()
        .filter(|out| out.status.success())
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_hexdigit()))
        .unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=DOMINOFIT_COMMIT={commit}");
    // A new commit or checkout changes HEAD (or the ref it points to).
    println!("cargo:rerun-if-changed=.git/HEAD");
    println!("cargo:rerun-if-changed=.git/refs/heads");
}
