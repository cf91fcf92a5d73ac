/* The core's HIP entries (core_api.h says their contract; docs/hip.md what they do). */
#ifndef HOTSWAP_INTERCEPT_HIP_H
#define HOTSWAP_INTERCEPT_HIP_H

const void *hsi_hip_fatbin(const void *wrapper);
const void *hsi_hip_image(const void *image);
const void *hsi_hip_file(const char *path);

#endif
