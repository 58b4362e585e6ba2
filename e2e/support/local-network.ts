/**
 * The outgoing-request settings that let the server reach the fakes on 127.0.0.1 (the WeChat server,
 * the image host), as an operator allows their own network: by default local addresses are refused.
 */
export const localNetworkAllowed: Record<string, string> = {
  'fetch_setting.ip_filter_mode': 'true',
  'fetch_setting.ip_list': '["127.0.0.1"]',
  'fetch_setting.allowed_ports': '[]',
};
