import { defineArea } from "./define";

/** The http client's catalogue (doc 1 §8). */
export const http = defineArea(
  {
    badRequest: "参数错误",
    unauthorized: "没有权限",
    refused: "拒绝访问",
    notFound: "请求的资源不存在",
    timeout: "请求超时",
    connectionFailed: "连接服务器失败",
    tokenInvalid: "token失效",
    serverError: "服务器错误{{status}}",
    connectionError: "连接错误{{status}}",
  },
  {
    badRequest: "parameter error",
    unauthorized: "no permission",
    refused: "request refused",
    notFound: "server resource not found",
    timeout: "timeout",
    connectionFailed: "connection to server failed",
    tokenInvalid: "token invalid",
    serverError: "server error {{status}}",
    connectionError: "connection error {{status}}",
  },
);
