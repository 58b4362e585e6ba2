import type { LocalizedMessage } from '../../../core/messages/catalogue.ts';

export const channelMessages = {
  notFound: { zh: '渠道不存在，请刷新后重试', en: 'Channel not found, refresh and retry' },
  // Type, name, groups, models and key are required (wording as new-api's channel form).
  typeRequired: { zh: '请选择渠道类型', en: 'Channel type is required' },
  groupsRequired: { zh: '请至少选择一个分组', en: 'At least one group is required' },
  keyRequired: { zh: '请填写渠道密钥', en: 'Please fill in the channel key' },
  nameRequired: { zh: '请填写渠道名称', en: 'Please fill in the channel name' },
  modelsRequired: { zh: '请至少选择一个模型', en: 'Please select at least one model' },
  duplicateModels: { zh: '以下模型已存在：{models}', en: 'Some models already exist: {models}' },
  modelMappingInvalid: { zh: '模型映射必须是合法的 JSON 格式！', en: 'Model mapping must be valid JSON' },
  statusCodeMappingInvalid: { zh: '状态码复写必须是合法的 JSON 格式！', en: 'Status code mapping must be valid JSON' },
  jsonFieldInvalid: { zh: '{field} 必须是合法的 JSON 对象', en: '{field} must be a valid JSON object' },
  paramOverrideInvalid: {
    zh: 'param_override 的 operations 中有不支持的 mode、无法编译的正则表达式或无效的请求头',
    en: 'param_override operations contain an unsupported mode, a regular expression that does not compile or an invalid header',
  },
  headerOverrideInvalid: {
    zh: 'header_override 的每个键必须是合法的请求头名称，值必须是不含换行的文本',
    en: 'Each header_override key must be a valid header name, and each value text without line breaks',
  },
  usageLimitInvalid: {
    zh: 'setting 中的 rpm_limit、tpm_limit、key_rpm_limit、key_tpm_limit 必须是不小于 0 的整数（0 表示不限制）',
    en: 'rpm_limit, tpm_limit, key_rpm_limit and key_tpm_limit in setting must be whole numbers of at least 0 (0 means no limit)',
  },
  firstByteTimeoutInvalid: {
    zh: 'setting 中的 first_byte_timeout 必须是 0 到 3600 之间的整数（秒，0 表示使用全局设置）',
    en: 'first_byte_timeout in setting must be a whole number of seconds from 0 to 3600 (0 follows the global setting)',
  },
  priorityTooLow: { zh: '优先级不能小于 -999', en: 'Priority cannot be less than -999' },
  priorityNotInteger: { zh: '优先级必须是整数', en: 'Priority must be an integer' },
  weightInvalid: { zh: '权重必须是非负整数', en: 'Weight must be a non-negative integer' },
  statusInvalid: { zh: '无效的渠道状态', en: 'Invalid channel status' },
  typeInvalid: { zh: '无效的渠道类型', en: 'Invalid channel type' },
  noChanges: { zh: '没有任何修改', en: 'No changes' },
  tagRequired: { zh: '标签不能为空', en: 'Tag cannot be empty' },
  selectChannelsToTag: { zh: '请先选择要设置标签的渠道', en: 'Please select channels to tag first' },
  selectChannelsToDelete: { zh: '请先选择要删除的渠道', en: 'Please select channels to delete first' },
  balanceNotSupported: { zh: '该渠道类型暂不支持查询余额', en: 'Balance query is not supported for this channel type' },
  balanceFailed: { zh: '查询余额失败：{reason}', en: 'Balance query failed: {reason}' },
  fetchModelsFailed: { zh: '获取模型列表失败：{reason}', en: 'Failed to fetch the model list: {reason}' },
  fetchModelsKeyRequired: { zh: '请先填写密钥', en: 'Please fill in the key first' },
  keyFormatInvalid: {
    zh: '{label} 渠道的密钥格式应为 {format}，第 {position} 个密钥不符合',
    en: 'A {label} channel key must be written as {format}; key {position} is not',
  },
  modelListNotOffered: {
    zh: '{label} 不提供模型列表接口，请手动填写模型或使用“填入相关模型”',
    en: '{label} offers no model list; enter the models by hand or use "fill related models"',
  },
  typeNotRelayed: { zh: '该渠道类型目前无法使用：{reason}', en: 'This channel type cannot be used: {reason}' },
} as const satisfies Record<string, LocalizedMessage>;
