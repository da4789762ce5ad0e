//! Where the time of one small solve goes: compile, layout, search.
use dominofit::backend::{Backend, Budget, Control, native::Native};
use dominofit::model::{Families, compile};
use dominofit::puzzle::parse::read_instances;
use std::time::Instant;

fn main() {
    let path = std::env::args().nth(1).expect("instance");
    let phase = std::env::args().nth(2).unwrap_or_default();
    let inst = read_instances(&path).unwrap().remove(0);
    let n = 200000;
    let model = compile(&inst, Families::All);
    let t = Instant::now();
    for _ in 0..n {
        if phase == "compile" {
            std::hint::black_box(compile(&inst, Families::All));
        } else {
            Native::default()
                .solve(&model, 2, &Budget::default(), &mut |_| Control::Continue)
                .unwrap();
        }
    }
    println!(
        "{phase} {:.2} us",
        t.elapsed().as_secs_f64() * 1e6 / n as f64
    );
}
