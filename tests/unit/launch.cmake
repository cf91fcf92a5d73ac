# The launch file of `mirage emulate` (translate/launch).
mirage_unit_test(launch_file SOURCES test_launch_file.c LIBS mirage_launch LABELS launch)
