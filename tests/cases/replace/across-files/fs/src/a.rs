fn old_name() -> u32 {
    1
}

fn caller() -> u32 {
    old_name() + old_name()
}
