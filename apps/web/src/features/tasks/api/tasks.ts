import type { Task, TaskInput, TaskNotice, TaskRun } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

export const tasksKey = ["tasks"] as const;
const T = `${API.builder}/task`;

/** POST /aiagent_api/task/page: the caller's tasks. */
export const useTasks = (name: string) =>
  useQuery({
    queryKey: [...tasksKey, "page", name],
    queryFn: () => http.post<{ list: Task[]; total: number }>(`${T}/page`, { pageNo: 1, pageSize: 100, name: name || undefined }),
  });

/** GET /aiagent_api/task/targets: released agents and workflows a task may run. */
export const useTaskTargets = () =>
  useQuery({
    queryKey: [...tasksKey, "targets"],
    queryFn: () => http.get<{ id: string; name: string; type: "agent" | "workflow" }[]>(`${T}/targets`),
  });

/** GET /aiagent_api/task/robots: the caller's chat robots a task may deliver by. */
export const useTaskRobots = () =>
  useQuery({
    queryKey: [...tasksKey, "robots"],
    queryFn: () => http.get<{ id: string; name: string; type: string }[]>(`${T}/robots`),
  });

/** GET /aiagent_api/task/{id}/runs: the run history, newest first. */
export const useTaskRuns = (id: string) =>
  useQuery({
    queryKey: [...tasksKey, "runs", id],
    queryFn: () => http.get<{ list: TaskRun[]; total: number }>(`${T}/${id}/runs`, { pageNo: 1 }),
    refetchInterval: (q) => (q.state.data?.list.some((r) => r.status === "QUEUED" || r.status === "RUNNING") ? 3000 : false),
  });

/** GET /aiagent_api/task/cron-preview: the next five times of an expression. */
export const useCronPreview = (expr: string) =>
  useQuery({
    queryKey: [...tasksKey, "preview", expr],
    queryFn: () => http.get<{ valid: boolean; next: string[] }>(`${T}/cron-preview`, { expr }),
    enabled: expr.trim().length > 0,
  });

/** GET /aiagent_api/task/notices: finished and failed runs. */
export const useTaskNotices = () =>
  useQuery({
    queryKey: [...tasksKey, "notices"],
    queryFn: () => http.get<{ list: TaskNotice[]; unread: number }>(`${T}/notices`),
    refetchInterval: 30_000,
  });

export const saveTask = (id: string | null, input: TaskInput) => (id ? http.put<Task>(`${T}/${id}`, input) : http.post<Task>(T, input));
export const deleteTask = (id: string) => http.delete<null>(`${T}/${id}`);
export const setTaskEnabled = (id: string, enabled: boolean) => http.post<Task>(`${T}/${id}/${enabled ? "resume" : "pause"}`);
export const runTaskNow = (id: string) => http.post<TaskRun>(`${T}/${id}/run`);
export const newTaskApiKey = (id: string) => http.post<{ apiKey: string; apiKeyPrefix: string }>(`${T}/${id}/api-key`);
/** Where a caller with the apikey starts a run of the task (absolute, for the snippet). */
export const taskTriggerUrl = (id: string) => `${window.location.origin}${T}/${id}/trigger`;
export const readTaskNotices = () => http.post<null>(`${T}/notices/read`);
