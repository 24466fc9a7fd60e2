fn main() {
    std::process::exit(alloc_loop::main(alloc_loop::slow::find_pair));
}
