//! rsbt [ROUNDS]: the crate's own loop, and on each round std's
//! symbolizer (gimli, addr2line, rustc_demangle), which rustup ships
//! prebuilt without debug info: t406-fgsym-rust-msgs.sh.
use std::backtrace::Backtrace;

#[inline(never)]
fn own_work(n: u64) -> u64 {
    let mut x = n;
    for i in 0..500_000u64 {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(i) ^ (x >> 7);
    }
    x
}

#[inline(never)]
fn trace_len() -> usize {
    format!("{}", Backtrace::force_capture()).len()
}

fn main() {
    let rounds: u64 = std::env::args().nth(1).map_or(20, |s| s.parse().expect("ROUNDS"));
    let (mut x, mut t) = (0u64, 0usize);
    for r in 0..rounds {
        x ^= own_work(r);
        t += trace_len();
    }
    println!("{x} {t}");
}
