//! rsbt [ROUNDS]: the crate's own loop, and on each round std's
//! symbolizer (gimli, addr2line, rustc_demangle), which rustup ships
//! prebuilt without debug info: t406-fgsym-rust-msgs.sh. A panic caught
//! with RUST_BACKTRACE=1 runs it: std::backtrace is stable only since
//! Rust 1.65, and Debian 12 has 1.63. The panic's report goes to
//! /dev/null.
use std::fs::File;
use std::os::unix::io::AsRawFd;
use std::panic;

extern "C" {
    fn dup2(from: i32, to: i32) -> i32;
}

#[inline(never)]
fn own_work(n: u64) -> u64 {
    let mut x = n;
    for i in 0..500_000u64 {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(i) ^ (x >> 7);
    }
    x
}

/// A panic, caught: the default hook symbolizes its backtrace.
#[inline(never)]
fn traced_panic(r: u64) -> bool {
    panic::catch_unwind(|| {
        if r < u64::MAX {
            panic!("round {}", r);
        }
    })
    .is_err()
}

fn main() {
    let rounds: u64 = std::env::args().nth(1).map_or(20, |s| s.parse().expect("ROUNDS"));
    let null = File::create("/dev/null").expect("/dev/null");
    // SAFETY: both descriptors are open; stderr becomes /dev/null.
    if unsafe { dup2(null.as_raw_fd(), 2) } < 0 {
        panic!("dup2 failed");
    }
    std::env::set_var("RUST_BACKTRACE", "1");
    let (mut x, mut caught) = (0u64, 0u64);
    for r in 0..rounds {
        x ^= own_work(r);
        caught += traced_panic(r) as u64;
    }
    println!("{} {}", x, caught);
}
