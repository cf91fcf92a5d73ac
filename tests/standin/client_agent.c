/* The first GPU agent, for the stand-in's clients (client_agent.h). */
#include "client_agent.h"

hsa_status_t client_pick_gpu(hsa_agent_t a, void *data)
{
	hsa_device_type_t type;
	if (hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &type) == HSA_STATUS_SUCCESS &&
	    type == HSA_DEVICE_TYPE_GPU) {
		*(hsa_agent_t *)data = a;
		return HSA_STATUS_INFO_BREAK;
	}
	return HSA_STATUS_SUCCESS;
}
