-- The demo plans of databases seeded before plans had English texts: the same English as the seed.
UPDATE "plan_templates" SET "name_en" = 'Free', "description_en" = 'Try the agent marketplace and basic chat' WHERE "name" = '免费版' AND "description" = '体验智能体广场与基础对话' AND "name_en" = '';--> statement-breakpoint
UPDATE "plan_templates" SET "name_en" = 'Basic', "description_en" = 'A good helper for everyday work' WHERE "name" = '基础版' AND "description" = '个人日常办公的好帮手' AND "name_en" = '';--> statement-breakpoint
UPDATE "plan_templates" SET "name_en" = 'Personal flagship', "description_en" = 'Every personal feature, without limits' WHERE "name" = '个人旗舰版' AND "description" = '全部个人能力，不限量使用' AND "name_en" = '';--> statement-breakpoint
UPDATE "plan_templates" SET "name_en" = 'Enterprise basic', "description_en" = 'Teamwork with shared knowledge bases' WHERE "name" = '企业基础版' AND "description" = '团队协作，共享知识库' AND "name_en" = '';--> statement-breakpoint
UPDATE "plan_templates" SET "name_en" = 'Enterprise flagship', "description_en" = 'For large teams, with dedicated service' WHERE "name" = '企业旗舰版' AND "description" = '大型团队与专属服务' AND "name_en" = '';
