pub mod hopper_cases;
