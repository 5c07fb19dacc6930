fn new_name() -> u32 {
    1
}

fn caller() -> u32 {
    new_name() + new_name()
}
