pub mod codes;
pub mod hopper_cases;
pub mod inputs;
