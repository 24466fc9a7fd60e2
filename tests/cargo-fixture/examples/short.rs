//! short: an example target; returns at once.
fn main() {
    println!("short");
}
