/** The channel fields the editor sends on create and update (the server answers a ChannelView). */
export interface ChannelInput {
  type: number;
  name: string;
  key: string;
  base_url: string;
  other: string;
  openai_organization: string;
  models: string;
  group: string;
  model_mapping: string;
  status_code_mapping: string;
  setting: string;
  test_model: string;
  auto_ban: number;
  tag: string;
  priority: number;
  weight: number;
}
