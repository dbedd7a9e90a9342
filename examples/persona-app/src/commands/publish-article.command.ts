import { Command, FromContext, ToolParam, type CommandHandler } from '@toolwright/core';

export class PublishArticleParams {
  @ToolParam({
    description: 'Article title; taken from the latest pipeline data when omitted',
    extract: 'title',
    required: true,
  })
  title!: string;

  @ToolParam({
    description: 'Article body; taken from the latest pipeline data when omitted',
    extract: 'content',
    required: true,
  })
  content!: string;

  @ToolParam({ description: 'Where to publish', enum: ['blog', 'newsletter', 'intranet'] })
  channel!: 'blog' | 'newsletter' | 'intranet';

  @ToolParam({ description: 'Publish immediately instead of saving a draft', required: false })
  publish_now?: boolean;

  @FromContext('session_id', { required: true })
  sessionId!: string;

  @FromContext('source_url')
  sourceUrl?: string;
}

export interface Publication {
  readonly channel: string;
  readonly title: string;
  readonly words: number;
  readonly status: 'published' | 'draft';
  readonly sessionId: string;
  readonly sourceUrl?: string;
}

/** Uses extracted content: the model may leave `title`/`content` out, and they come from the pipeline data. */
@Command({
  name: 'publish_article',
  description: 'Publish an article to a channel.',
  params: PublishArticleParams,
  tags: ['publishing'],
  permissions: ['publish'],
})
export class PublishArticleCommand implements CommandHandler<PublishArticleParams, Publication> {
  execute(params: PublishArticleParams): Publication {
    return {
      channel: params.channel,
      title: params.title,
      words: params.content.split(/\s+/).filter(Boolean).length,
      status: params.publish_now ? 'published' : 'draft',
      sessionId: params.sessionId,
      ...(params.sourceUrl ? { sourceUrl: params.sourceUrl } : {}),
    };
  }
}
