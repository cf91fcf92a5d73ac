/* What every stand-in client does first: the first GPU agent (hsa_client, hsa_dispatch). */
#ifndef MIRAGE_STANDIN_CLIENT_AGENT_H
#define MIRAGE_STANDIN_CLIENT_AGENT_H

#include <hsa/hsa.h>

/* hsa_iterate_agents callback: stores the first GPU agent in *(hsa_agent_t *)data. */
hsa_status_t client_pick_gpu(hsa_agent_t a, void *data);

#endif
