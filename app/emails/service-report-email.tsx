import { Button, Column, Img, Link, Row, Section, Text } from '@react-email/components'
import { createElement } from 'react'
import type { ServiceReportEmailProps } from '~/mail/templates'
import { describeChemical } from '~/utils/chemicals'
import { formatDate, formatTime } from '~/utils/dates'
import { describeReading, describeStatus } from '~/water/summary'
import { EmailLayout } from './layout'

const label = { fontSize: 13, color: '#64748b', margin: '16px 0 4px', fontWeight: 600 } as const
const body = { fontSize: 15, color: '#334155', margin: '2px 0' } as const

/** Photos side by side in one row of the email: two fit a phone's width. */
const PHOTOS_PER_ROW = 2

/** Subject and body of the report a customer receives when their visit is marked complete. */
export function serviceReportEmail(props: ServiceReportEmailProps) {
  const date = formatDate(props.report.completedAt, props.report.timezone)
  return {
    subject: `Service report: ${props.report.companyName}, ${date}`,
    react: createElement(ServiceReportEmail, props),
  }
}

function ServiceReportEmail({ report, photos, morePhotos, portalUrl, brand }: ServiceReportEmailProps) {
  const photoRows = Array.from({ length: Math.ceil(photos.length / PHOTOS_PER_ROW) }, (_, row) =>
    photos.slice(row * PHOTOS_PER_ROW, (row + 1) * PHOTOS_PER_ROW),
  )
  const tz = report.timezone
  const intro = `${report.companyName} serviced your pool at ${report.address} on ${formatDate(report.completedAt, tz)}.`
  return (
    <EmailLayout
      preview={intro}
      heading="Your pool service report"
      footer={`You receive this email because ${report.companyName} services your pool with Pool Bud.`}
      brand={brand ?? { companyName: report.companyName, logoSrc: null }}
    >
      <Text style={body}>Hi {report.customerName},</Text>
      <Text style={body}>{intro}</Text>
      <Text style={label}>Visit</Text>
      <Text style={body}>
        Completed {formatDate(report.completedAt, tz)} at {formatTime(report.completedAt, tz)}
        {report.technicianName ? ` by ${report.technicianName}` : ''}
      </Text>
      <Text style={label}>Work done</Text>
      {report.checklist.length === 0 ? <Text style={body}>No checklist items were ticked.</Text> : null}
      {report.checklist.map((item) => (
        <Text key={item} style={body}>
          ✓ {item}
        </Text>
      ))}
      {report.customerNote ? (
        <>
          <Text style={label}>Note from your technician</Text>
          <Text style={body}>{report.customerNote}</Text>
        </>
      ) : null}
      <Text style={label}>Water chemistry</Text>
      {report.readings.length === 0 ? (
        <Text style={body}>No readings were taken on this visit.</Text>
      ) : (
        report.readings.map((reading) => (
          <Section key={reading.takenAt.toISOString()} style={{ margin: '4px 0' }}>
            <Text style={body}>
              {formatTime(reading.takenAt, tz)}: {describeReading(reading)}
            </Text>
            <Text style={{ ...body, color: '#0e7490' }}>{describeStatus(reading.summary)}</Text>
          </Section>
        ))
      )}
      {report.chemicals ? (
        <>
          <Text style={label}>Chemicals added</Text>
          {report.chemicals.length === 0 ? (
            <Text style={body}>None this visit.</Text>
          ) : (
            report.chemicals.map((chemical, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the same product may be added twice; order is fixed.
              <Text key={index} style={body}>
                {describeChemical(chemical)}
              </Text>
            ))
          )}
        </>
      ) : null}
      {photos.length ? (
        <>
          <Text style={label}>Photos</Text>
          {photoRows.map((row) => (
            <Row key={row[0]?.src}>
              {row.map((photo) => (
                <Column key={photo.src} style={{ paddingRight: 8, verticalAlign: 'top', width: '50%' }}>
                  <Img
                    src={photo.src}
                    alt={`${photo.labelName} photo`}
                    width={220}
                    style={{ borderRadius: 8, maxWidth: '100%', height: 'auto' }}
                  />
                  <Text style={{ ...body, fontSize: 13 }}>{photo.labelName}</Text>
                </Column>
              ))}
            </Row>
          ))}
          {morePhotos > 0 ? (
            <Text style={body}>
              {morePhotos === 1 ? '1 more photo is' : `${morePhotos} more photos are`} in your portal.
            </Text>
          ) : null}
        </>
      ) : null}
      <Section style={{ marginTop: 24 }}>
        <Button
          href={portalUrl}
          style={{
            backgroundColor: '#0e7490',
            color: '#ffffff',
            borderRadius: 8,
            padding: '12px 20px',
            fontWeight: 600,
          }}
        >
          View in your portal
        </Button>
      </Section>
      <Text style={{ fontSize: 13, color: '#64748b' }}>
        Or paste this link into your browser: <Link href={portalUrl}>{portalUrl}</Link>
      </Text>
    </EmailLayout>
  )
}
