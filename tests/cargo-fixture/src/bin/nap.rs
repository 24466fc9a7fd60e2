//! nap: sleeps, so that an off-CPU profile has a wait under nap::main.
use std::{thread, time::Duration};

#[inline(never)]
fn nap_wait(ms: u64) {
    thread::sleep(Duration::from_millis(ms));
}

fn main() {
    for _ in 0..4 {
        nap_wait(30);
    }
}
