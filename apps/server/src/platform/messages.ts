import type { Language } from "@agentfair/contracts";

/**
 * The server's message catalogue, by key, in both languages. zh keeps the spec's Chinese texts
 * verbatim; en has an English text for every message (texts the spec gives in English are its
 * wording, with a faithful zh). Modules add their keys here, in their own section.
 */
export const messages = {
  // platform
  ok: { zh: "操作成功", en: "success" },
  badRequest: { zh: "参数错误：{detail}", en: "parameter error: {detail}" },
  unauthorized: { zh: "未登录或登录已过期，请重新登录", en: "not signed in or the sign-in has expired" },
  tokenInvalid: { zh: "token失效", en: "token invalid" },
  forbidden: { zh: "没有权限", en: "no permission" },
  notFound: { zh: "请求的资源不存在", en: "server resource not found" },
  tooMany: { zh: "操作过于频繁，请{seconds}秒后再试", en: "too many attempts, try again in {seconds} s" },
  internal: { zh: "服务器内部错误", en: "internal server error" },
  // auth
  captchaWrong: { zh: "验证码错误", en: "wrong captcha" },
  captchaExpired: { zh: "验证码已失效，请刷新", en: "the captcha has expired, refresh it" },
  captchaRequired: { zh: "请输入验证码", en: "please enter the captcha" },
  loginFailed: { zh: "用户名或密码错误", en: "wrong username or password" },
  accountLocked: {
    zh: "登录失败次数过多，账号已锁定，请{minutes}分钟后再试",
    en: "too many failed sign-ins: the account is locked, try again in {minutes} min",
  },
  tenantNotFound: { zh: "租户不存在", en: "tenant not found" },
  tenantAdminDefaultTenant: {
    zh: "平台默认租户没有租户管理员，由平台管理员管理",
    en: "the default tenant has no tenant administrators: platform administrators manage it",
  },
  tenantUserNotFound: { zh: "该租户下没有此用户", en: "the tenant has no user with this username" },
  checkCodeWrong: { zh: "验证码错误", en: "wrong verification code" },
  checkCodeExpired: { zh: "验证码已失效，请重新获取", en: "the verification code has expired, request a new one" },
  checkCodeSent: { zh: "验证码已发送", en: "verification code sent" },
  checkCodeSubject: { zh: "Agentfair 验证码", en: "Agentfair verification code" },
  checkCodeBody: {
    zh: "您的验证码是 {code}，{minutes} 分钟内有效。如非本人操作请忽略。",
    en: "Your verification code is {code}. It is valid for {minutes} minutes. Ignore this mail if you did not ask for it.",
  },
  contactInvalid: { zh: "请输入正确的邮箱或手机号", en: "enter a valid email or phone number" },
  usernameTaken: { zh: "用户名已存在", en: "the username is taken" },
  contactTaken: { zh: "该邮箱或手机号已注册", en: "this email or phone number is already registered" },
  contactUnknown: { zh: "该邮箱或手机号未注册", en: "this email or phone number is not registered" },
  qrExpired: { zh: "二维码已过期，请刷新", en: "the QR code has expired, refresh it" },
  qrConfirmed: { zh: "已确认登录", en: "sign-in confirmed" },
  qrOtherTenant: {
    zh: "该二维码属于其他租户，请使用对应租户的账号确认",
    en: "this QR code belongs to another tenant: confirm with an account of that tenant",
  },
  passwordReset: { zh: "密码已重置，请登录", en: "password reset, please sign in" },
  registered: { zh: "注册成功", en: "registered successfully" },
  membershipRequired: {
    zh: "会员权益功能，请先开通会员",
    en: "membership feature, please open membership first",
  },
  // agents and files
  agentNameBlank: { zh: "名称不能为空", en: "the name must not be empty" },
  agentNameTooLong: { zh: "输入内容不能超过15个字符", en: "at most 15 characters" },
  personaTooLong: { zh: "人设与回复逻辑不能超过{max}字节", en: "the prompt may be at most {max} bytes" },
  variableNameDuplicate: { zh: "变量名重复：{name}", en: "variable name duplicate: {name}" },
  labelNotFound: { zh: "分类标签不存在", en: "the label does not exist" },
  debugBeforeRelease: { zh: "请先调试成功再发布", en: "please debug successfully before releasing" },
  agentNotReleased: { zh: "智能体未发布", en: "agent not released" },
  agentNotListed: { zh: "智能体未上架", en: "the agent is not listed" },
  alreadyListed: { zh: "当前版本已上架", en: "this version is already listed" },
  agentNotCopyable: {
    zh: "该智能体的创建者未允许复制，可直接使用",
    en: "The creator of this agent does not allow copies; you can still use it",
  },
  applyPending: { zh: "审核中", en: "under review" },
  applyNotPending: { zh: "该申请已处理", en: "this request has already been reviewed" },
  copySuccess: { zh: "复制成功！", en: "copied successfully!" },
  deleteSuccess: { zh: "删除成功", en: "deleted successfully" },
  fileFormatNotSupported: { zh: "文件格式不支持", en: "file format not supported" },
  fileTooLarge: { zh: "文件大小不能超过{size}", en: "the file may be at most {size}" },
  fileRequired: { zh: "请选择要上传的文件", en: "please choose a file to upload" },
  // billing
  memberFeatureRequired: { zh: "会员权益功能，请先开通会员!", en: "membership feature, please open membership first!" },
  planNotFound: { zh: "套餐不存在或已下架", en: "the plan does not exist or is no longer offered" },
  durationNotFound: { zh: "购买时长不存在", en: "the duration does not exist" },
  freePlanNotForSale: { zh: "免费版无需购买", en: "the free plan needs no purchase" },
  cannotDowngrade: { zh: "当前会员等级更高，无法购买较低等级的套餐", en: "your current membership is higher than this plan" },
  groupNotFound: { zh: "团队不存在", en: "the team does not exist" },
  groupNameRequired: { zh: "请填写团队名称", en: "please enter the team name" },
  orderNotPending: { zh: "订单状态不允许该操作", en: "the order's status does not allow this" },
  orderTransitionIllegal: { zh: "订单不能从{from}变为{to}", en: "an order cannot go from {from} to {to}" },
  rechargeMembersOnly: { zh: "充值仅对付费会员开放，请先开通会员", en: "top-ups are for paid members, please open membership first" },
  rechargeOptionNotFound: { zh: "充值金额不存在", en: "the top-up amount does not exist" },
  paymentFailed: { zh: "创建支付失败，请稍后再试", en: "the payment could not be created, try again later" },
  paymentNotificationInvalid: { zh: "支付通知验证失败", en: "the payment notification could not be verified" },
  balanceInsufficient: { zh: "账户余额不足，请先充值", en: "insufficient balance, please top up first" },
  balanceInsufficientRefund: { zh: "用户余额不足，无法退款", en: "the user's balance is too low for this refund" },
  freeChatsExhausted: {
    zh: "今日免费对话次数（{count}次）已用完，请开通会员",
    en: "today's {count} free chats are used up, please open membership",
  },
  benefitCodeEmpty: { zh: "请输入邀请码！", en: "please enter the invitation code!" },
  benefitCodeInvalid: { zh: "权益码无效", en: "invalid benefit code" },
  benefitCodeUsed: { zh: "权益码已被使用", en: "this benefit code has already been used" },
  benefitCodeExpired: { zh: "权益码已过期", en: "this benefit code has expired" },
  benefitCodeLevel: { zh: "当前会员等级不可使用权益码", en: "benefit codes are not available for your member level" },
  benefitCodeLower: { zh: "当前会员等级高于权益码等级，无法使用", en: "your membership is higher than this code grants" },
  transferDisabled: { zh: "未开放对公转账", en: "bank transfer is not offered" },
  transferImageType: { zh: "回单图片只能是 png 或 jpg 格式", en: "the receipt image must be png or jpg" },
  transferFieldsRequired: { zh: "请填写公司全称、联系人并上传回单", en: "company name, contact and receipt image are required" },
  transferSubmitted: { zh: "提交成功，我们会尽快联系您", en: "submitted, we will contact you soon" },
  agentNotFoundForFee: { zh: "智能体不存在", en: "the agent does not exist" },
  rechargeOrderTitle: { zh: "账户充值 ¥{amount}", en: "account top-up ¥{amount}" },
  membershipOrderTitle: { zh: "{name} × {months}", en: "{name} × {months}" },
  // chat and models
  noModel: {
    zh: "暂无可用的模型：请管理员在「模型管理」中添加并启用一个对话模型",
    en: "No usable model: an administrator can add and enable a chat model in Model management",
  },
  noAudioModel: {
    zh: "暂无可用的语音识别模型：请管理员在「模型管理」中添加并启用一个音频模型",
    en: "No speech-to-text model: an administrator can add and enable an audio model in Model management",
  },
  modelRateLimited: { zh: "模型调用超过每分钟限额，请稍后再试", en: "the model's per-minute limit is reached, try again shortly" },
  modelCallFailed: { zh: "模型调用失败：{detail}", en: "the model call failed: {detail}" },
  modelBlockedAddress: {
    zh: "模型地址指向内网或本机地址，未被允许访问",
    en: "the model address points to a private or local network and is not allowed",
  },
  modelBlockedAddressAllowHint: {
    zh: "模型地址指向内网或本机地址，未被允许访问。本机或内网部署的模型服务（如 Ollama、vLLM）请在编辑模型时开启「允许内网地址」",
    en: 'the model address points to a private or local network and is not allowed. For a model server on this machine or the local network (Ollama, vLLM), turn on "Allow private address" when editing the model',
  },
  modelConnectionOk: { zh: "连接成功", en: "connection successful" },
  modelDefaultName: { zh: "默认模型", en: "default model" },
  sessionTitleEmpty: { zh: "名称不能为空", en: "the name must not be empty" },
  sessionTitleTooLong: { zh: "输入内容不能超过15个字符", en: "at most 15 characters" },
  chatTooFast: { zh: "对话请求过于频繁，请{seconds}秒后再试", en: "too many chat requests, try again in {seconds} s" },
  chatTooManyStreams: {
    zh: "同时进行的对话过多（最多{limit}个），请等当前回复结束后再试",
    en: "too many chats at once (at most {limit}): wait until a reply has finished",
  },
  chatQueryEmpty: { zh: "请先输入内容或上传文件!", en: "please enter a question or upload a file first!" },
  chatUploadType: {
    zh: "请上传 image、word、excel、pdf、audio、zip 等类型文件",
    en: "please upload an image, Word, Excel, PDF, audio, zip or similar file",
  },
  chatUploadTooLarge: { zh: "文件大小不能超过15MB", en: "files may be at most 15 MB" },
  transcriptionFailed: { zh: "语音识别失败，请重试", en: "speech recognition failed, please retry" },
  chatStoppedByUser: { zh: "对话已终止", en: "conversation terminated" },
  chatToolStepLimit: {
    zh: "已达到工具调用次数上限，本次回答未能完成，请换个问法或拆分问题后再试",
    en: "The tool call limit was reached before an answer was ready. Please rephrase or split the question and try again.",
  },
  chatModelTimeout: {
    zh: "模型未能及时回答，请稍后重试",
    en: "The model did not answer in time. Please try again later.",
  },
  chatModelUnavailable: {
    zh: "模型服务暂时无法连接，请稍后重试",
    en: "The model service cannot be reached right now. Please try again later.",
  },
  chatModelRejected: {
    zh: "模型拒绝了这次请求，请联系管理员检查模型配置",
    en: "The model refused this request. Please ask an administrator to check the model settings.",
  },
  // tools
  pluginNameRequired: { zh: "请输入插件名称", en: "please enter the plugin name" },
  pluginDescriptionRequired: { zh: "请输入描述", en: "please enter a description" },
  pluginIconRequired: { zh: "请选择图标", en: "please choose an icon" },
  callableNameRequired: { zh: "请输入调用名称", en: "please enter a call name" },
  pluginTypeRequired: { zh: "请选择插件类型", en: "please choose the plugin type" },
  pluginGroupRequired: { zh: "请选择或输入分组", en: "please choose or enter a group" },
  callableNameSourceRequired: { zh: "请输入插件名称或简介", en: "please enter the plugin name or introduction" },
  callableNameInvalid: {
    zh: "调用名称只能包含字母、数字和下划线，并以字母开头",
    en: "the call name may only contain letters, digits and underscores, and starts with a letter",
  },
  callableNameTaken: { zh: "调用名称已被您的其他工具使用", en: "another of your tools already uses this call name" },
  pluginNotModifiable: { zh: "MCP和内置插件不允许修改", en: "MCP and built-in plugins cannot be modified" },
  pluginUrlInvalid: { zh: "请输入正确的URL地址。", en: "Please enter the correct URL address." },
  pluginCodeRequired: { zh: "请输入代码（定义 main(params) 函数）", en: "please enter the code (defining main(params))" },
  pluginTypeNotSupported: { zh: "暂不支持该插件类型", en: "this plugin type is not supported here" },
  pluginCreated: { zh: "创建成功", en: "created successfully" },
  pluginDeleted: { zh: "删除成功", en: "deleted successfully" },
  pluginSaved: { zh: "保存成功！", en: "saved successfully!" },
  openApiRequired: { zh: "请输入", en: "please enter" },
  baseUrlRequired: { zh: "请输入baseUrl", en: "please enter baseUrl" },
  openApiInvalid: { zh: "无法解析OpenAPI文档：{detail}", en: "the OpenAPI document could not be read: {detail}" },
  curlInvalid: { zh: "无法解析cURL命令：{detail}", en: "the cURL command could not be read: {detail}" },
  urlRefused: { zh: "不允许访问该地址：{detail}", en: "this address may not be reached: {detail}" },
  mcpConnectFailed: { zh: "无法连接MCP服务：{detail}", en: "could not connect to the MCP server: {detail}" },
  mcpStdioNotAllowed: { zh: "该命令不在管理员允许的MCP命令列表中", en: "this command is not on the administrators' list of MCP commands" },
  bindPlugin: { zh: "请绑定插件", en: "please bind the plugin" },
  // knowledge
  knowledgeNameRequired: { zh: "请输入名称", en: "please enter a name" },
  knowledgeCreateFailed: { zh: "创建失败！", en: "creation failed!" },
  knowledgeCreated: { zh: "创建成功！", en: "created successfully!" },
  knowledgeDeleted: { zh: "删除成功！", en: "deleted successfully!" },
  knowledgeSaved: { zh: "保存成功！", en: "saved successfully!" },
  folderNameInvalid: { zh: "文件夹名称不能为空，且不能包含斜杠", en: "the folder name must not be empty or contain a slash" },
  folderNameTaken: { zh: "已有同名文件夹", en: "a folder with this name already exists" },
  qaPairEmpty: { zh: "问题和答案不能为空", en: "the question and the answer cannot be empty" },
  qaCsvRequired: { zh: "请选择CSV文件", en: "please choose a CSV file" },
  qaCsvEmpty: {
    zh: "CSV文件中没有问答对（每行两列：问题,答案）",
    en: "the CSV file has no Q&A pairs (two columns per row: question, answer)",
  },
  zipRequired: { zh: "请上传zip文件", en: "a zip file is required for import" },
  zipInvalid: { zh: "zip文件已损坏或无法读取", en: "the zip file is damaged or cannot be read" },
  zipTooLarge: { zh: "zip解压后总大小不能超过{size}", en: "the zip may unpack to at most {size}" },
  zipTooManyEntries: { zh: "zip中的文件不能超过{count}个", en: "the zip may hold at most {count} files" },
  zipNested: { zh: "zip中不能再包含压缩包：{name}", en: "the zip may not contain another archive: {name}" },
  zipUnsafeEntry: { zh: "zip中包含不安全的路径或链接：{name}", en: "the zip contains an unsafe path or link: {name}" },
  zipEntryNotSupported: { zh: "zip中的文件格式不支持：{name}", en: "a file in the zip has an unsupported format: {name}" },
  segmentEmpty: { zh: "分段内容不能为空", en: "the segment content cannot be empty" },
  knowledgeParseFailed: { zh: "文件解析失败：{detail}", en: "the file could not be read: {detail}" },
  knowledgeNoText: { zh: "文件中没有可识别的文字", en: "no text was found in the file" },
  knowledgeEmbedFailed: { zh: "向量处理失败：{detail}", en: "vector processing failed: {detail}" },
  knowledgeEmbeddingModelNotFound: { zh: "向量模型不存在或未启用", en: "the embedding model does not exist or is not enabled" },
  knowledgeNoAnswer: { zh: "抱歉，知识库中没有找到相关答案。", en: "Sorry, the knowledge base has no answer to this." },
} satisfies Record<string, Record<Language, string>>;

export type MessageKey = keyof typeof messages;

export function translate(key: MessageKey, lang: Language, params: Record<string, string | number> = {}) {
  const template: string = messages[key][lang];
  return template.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? `{${name}}`));
}

/** zh unless the request asks for en (lang header, then Accept-Language). */
export function requestLanguage(headers: Record<string, string | string[] | undefined>): Language {
  const explicit = headers.lang ?? headers["content-language"];
  const value = String(Array.isArray(explicit) ? explicit[0] : (explicit ?? headers["accept-language"] ?? ""));
  return value.toLowerCase().startsWith("en") ? "en" : "zh";
}
