// bigframe.rs: the Rust twin of bigframe.c. main calls outer, whose frame
// holds a 1 MiB array on the stack (written, and passed to black_box so
// that the compiler keeps it); outer calls the hot work five calls below
// it. SECONDS of the thread's CPU time (argv[1], 1 by default).
use std::hint::black_box;

#[repr(C)]
struct Timespec {
    sec: i64,
    nsec: i64,
}

extern "C" {
    fn clock_gettime(clock: i32, ts: *mut Timespec) -> i32;
}

fn cpu() -> f64 {
    let mut ts = Timespec { sec: 0, nsec: 0 };
    // CLOCK_THREAD_CPUTIME_ID
    unsafe { clock_gettime(3, &mut ts) };
    ts.sec as f64 + ts.nsec as f64 / 1e9
}

#[inline(never)]
fn hot(end: f64) -> u64 {
    let mut sum = 0u64;
    while cpu() < end {
        for i in 0..100_000u64 {
            sum = black_box(sum.wrapping_add(i));
        }
    }
    sum
}

#[inline(never)]
fn level4(end: f64) -> u64 {
    black_box(hot(end)) + 1
}

#[inline(never)]
fn level3(end: f64) -> u64 {
    black_box(level4(end)) + 1
}

#[inline(never)]
fn level2(end: f64) -> u64 {
    black_box(level3(end)) + 1
}

#[inline(never)]
fn level1(end: f64) -> u64 {
    black_box(level2(end)) + 1
}

#[inline(never)]
fn outer(end: f64) -> u64 {
    let mut big = [1u8; 1 << 20];
    black_box(&mut big);
    let r = level1(end);
    black_box(&big);
    r + big[(1 << 19) + (r as usize & 1)] as u64
}

fn main() {
    let secs: f64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1.0);
    let end = cpu() + secs;
    println!("{}", outer(end));
}
