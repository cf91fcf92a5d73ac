/* Once-only plugin loads with a kept answer (plugin_slot.h). */
#include "plugin_slot.h"

const void *plugin_slot_get(struct plugin_slot *slot, plugin_slot_load_fn load, const void *arg)
{
	/* Acquire pairs with the release below: a caller that sees done sees api and error. */
	if (!atomic_load_explicit(&slot->done, memory_order_acquire)) {
		pthread_mutex_lock(&slot->lock);
		if (!atomic_load_explicit(&slot->done, memory_order_relaxed)) {
			slot->api = load(&slot->error, arg);
			if (slot->api) {
				slot->error.failure = PLUGIN_OK;
				slot->error.text[0] = '\0';
			}
			atomic_store_explicit(&slot->done, true, memory_order_release);
		}
		pthread_mutex_unlock(&slot->lock);
	}
	return slot->api;
}

const void *plugin_slot_loaded(struct plugin_slot *slot)
{
	return atomic_load_explicit(&slot->done, memory_order_acquire) ? slot->api : NULL;
}
