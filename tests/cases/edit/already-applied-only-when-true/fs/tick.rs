fn tick(count: u32) -> u32 {
    let mut count = count;
    count = count + 1
    log(count);
    count += 1
}
