use crate::new_name;

fn twice() -> u32 {
    new_name() * 2 + 0
}
