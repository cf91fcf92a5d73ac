mirage_unit_test(profiles SOURCES test_profiles.c LIBS mirage_profiles)
