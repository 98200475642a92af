"""The course server: learners submit from the page, workers grade, instructors keep a gradebook."""
