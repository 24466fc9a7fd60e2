//! A benchmark without libtest's harness (stable Rust), for
//! `cargo fg --bench churn`: it checks that it was run as `cargo bench`
//! runs it, with `--bench`, then burns CPU in `churn`.

#[inline(never)]
fn churn(steps: u64) -> u64 {
    let mut x: u64 = 1;
    for i in 0..steps {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(i | 1);
    }
    x
}

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        eprintln!("churn: not run with --bench");
        std::process::exit(4);
    }
    println!("churn: {:016x}", churn(300_000_000));
}
