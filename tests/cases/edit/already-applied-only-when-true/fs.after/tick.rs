fn tick(count: u32) -> u32 {
    let mut total = count;
    count = count + 1
    trace(count);
    count += 1
}
