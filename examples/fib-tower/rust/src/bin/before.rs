fn main() {
    std::process::exit(fib_tower::main(fib_tower::slow::fib));
}
