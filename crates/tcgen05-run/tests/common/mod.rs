pub mod hopper_cases;
pub mod inputs;
