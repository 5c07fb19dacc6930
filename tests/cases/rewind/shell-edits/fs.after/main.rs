fn main() { run() }
