// fgpprof fixture: Rust, std only. Spins for SECONDS (default 0.4);
// hotrs::crunch is the hot function.
use std::time::{Duration, Instant};

/// What std::hint::black_box does (stable only since Rust 1.66; Debian 12
/// has 1.63): the volatile read of a copy hides the value from the
/// optimiser. Inlined, so that it adds no frame to the profile.
#[inline(always)]
fn black_box<T>(x: T) -> T {
    let y = unsafe { std::ptr::read_volatile(&x) };
    std::mem::forget(x);
    y
}

#[inline(never)]
fn crunch(n: u64) -> u64 {
    let mut s = 0u64;
    for i in 0..n {
        s = s.wrapping_add(black_box(i).wrapping_mul(2654435761) ^ (i >> 7));
    }
    s
}

#[inline(never)]
fn light(n: u64) -> u64 {
    (0..n).map(black_box).sum()
}

fn main() {
    let secs: f64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(0.4);
    let end = Instant::now() + Duration::from_secs_f64(secs);
    let mut s = 0u64;
    while Instant::now() < end {
        s = s.wrapping_add(crunch(400_000));
        s = s.wrapping_add(light(40_000));
    }
    black_box(s);
}
